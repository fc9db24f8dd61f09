// The network a client's address stands for, for everything counted per address (fair queues,
// rate limits, login and reset throttling). An IPv6 host is usually given a whole /64 and can
// take any address in it, so counting single IPv6 addresses would give one person 2^64 of
// whatever is limited per address: they are counted per /64. An IPv4 address stands for itself
// (NAT already puts many people behind one), also when written IPv4-mapped (::ffff:192.0.2.1).
import { isIPv4, isIPv6 } from 'node:net';

/** `192.0.2.1` for IPv4, `2001:db8:0:1::/64` for any IPv6 address in that /64; anything else as given. */
export function clientNetwork(address: string): string {
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  if (groups === undefined) return address;
  // ::ffff:a.b.c.d is an IPv4 client reaching a dual-stack socket.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`;
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (a zone dropped, an embedded IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.split('%')[0]!.toLowerCase();
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (isIPv4(last)) {
    const [a, b, c, d] = last.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((h) => (/^[0-9a-f]{1,4}$/.test(h) ? parseInt(h, 16) : NaN)));
  const front = parse(halves[0]!);
  const back = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - front.length - back.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...front, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...back];
  return groups.every((g) => Number.isInteger(g)) ? groups : undefined;
}
