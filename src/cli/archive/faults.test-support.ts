// Failures injected into a real file store and a real database, for the import rollback tests:
// a store whose chosen method throws on its nth call, and a dialect whose connections throw on
// the first statement matching a pattern (a COMMIT, a counter's setval). Everything else runs as
// it would, on the real store and database.
import type { DatabaseConnection, Dialect, Driver } from 'kysely';
import type { FileStore } from '../../core/storage/index.ts';

export interface FailingStore extends FileStore {
  /**
   * Makes the nth call of `method` from now fail: `before` it does anything, or `after` it has
   * done its work (a move whose copy and delete went through but whose answer was an error).
   */
  failOn(method: keyof FileStore, nth: number, when?: 'before' | 'after'): void;
  /** Disarms a failure that did not happen. */
  clear(): void;
  /** Whether the armed failure happened. */
  readonly fired: boolean;
}

export function failingStore(store: FileStore): FailingStore {
  let armed: { method: string; left: number; when: 'before' | 'after' } | undefined;
  let fired = false;
  return new Proxy(store, {
    get(target, prop) {
      if (prop === 'failOn') {
        return (method: string, nth: number, when: 'before' | 'after' = 'before') => {
          armed = { method, left: nth, when };
          fired = false;
        };
      }
      if (prop === 'clear') return () => { armed = undefined; };
      if (prop === 'fired') return fired;
      const value = Reflect.get(target, prop) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const failing = armed !== undefined && armed.method === prop && --armed.left === 0 ? armed : undefined;
        if (!failing) return value.apply(target, args);
        armed = undefined;
        fired = true;
        if (failing.when === 'after') await value.apply(target, args);
        throw new Error(`injected failure of ${String(prop)}(${args.map((a) => JSON.stringify(a)).join(', ')})`);
      };
    },
  }) as FailingStore;
}

export interface StatementFaults {
  /** For connect's wrapDialect. */
  wrap(dialect: Dialect): Dialect;
  /** Makes the next statement whose SQL matches fail, without sending it. */
  failOn(pattern: RegExp): void;
  /** Disarms a failure that did not happen. */
  clear(): void;
  readonly fired: boolean;
}

/** Forwards every property to `target`, methods bound to it, except those in `own`. */
function forward<T extends object>(target: T, own: Partial<T>): T {
  return new Proxy(target, {
    get(t, prop) {
      if (prop in own) return own[prop as keyof T];
      const value = Reflect.get(t, prop) as unknown;
      return typeof value === 'function' ? value.bind(t) : value;
    },
  });
}

export function statementFaults(): StatementFaults {
  let armed: RegExp | undefined;
  let fired = false;
  const connection = (real: DatabaseConnection): DatabaseConnection =>
    forward(real, {
      executeQuery: async (query) => {
        if (armed?.test(query.sql)) {
          armed = undefined;
          fired = true;
          throw new Error(`injected failure of the statement ${query.sql.slice(0, 60)}`);
        }
        return real.executeQuery(query);
      },
    });
  const driver = (real: Driver): Driver => forward(real, { acquireConnection: async () => connection(await real.acquireConnection()) });
  return {
    wrap: (dialect) => forward(dialect, { createDriver: () => driver(dialect.createDriver()) }),
    failOn(pattern) {
      armed = pattern;
      fired = false;
    },
    clear() {
      armed = undefined;
    },
    get fired() {
      return fired;
    },
  };
}
