// Growing the typed arrays the counter keeps its lists in.

/**
 * `array` itself when it has room for `needed` items; otherwise a new array, at least twice as
 * long, holding a copy of its first `used` items.
 */
export function withRoom(array: Int32Array<ArrayBuffer>, used: number, needed: number): Int32Array<ArrayBuffer> {
  if (needed <= array.length) return array;
  const bigger = new Int32Array(Math.max(needed, 2 * array.length));
  bigger.set(array.subarray(0, used));
  return bigger;
}
