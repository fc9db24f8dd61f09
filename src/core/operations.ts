// Services as exported functions with explicit dependencies (design.md, "How a request flows"):
// each operation takes its dependencies first; a module's service is its operations with those
// dependencies given once, so other modules call `ctx.services.<name>.<operation>(...)`.

type Operation<D> = (deps: D, ...args: any[]) => unknown;

export type BoundOperations<D, T extends Record<string, Operation<D>>> = {
  [K in keyof T]: T[K] extends (deps: D, ...args: infer A) => infer R ? (...args: A) => R : never;
};

/** The operations with `deps` given: plain functions, so a caller may pass one on without its object. */
export function bindOperations<D, T extends Record<string, Operation<D>>>(deps: D, operations: T): BoundOperations<D, T> {
  const bound: Record<string, unknown> = {};
  for (const [name, operation] of Object.entries(operations)) bound[name] = (...args: unknown[]) => operation(deps, ...args);
  return bound as BoundOperations<D, T>;
}
