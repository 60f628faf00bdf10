import { availableParallelism } from 'node:os';

/**
 * The ZPL conversions of one process. Each is a `pdftoppm` at work on a core for a while, so:
 * - one label is converted once however many ask for it at the same moment (they share the one conversion);
 * - at most `limit` conversions run at once in the process, the rest wait their turn;
 * - a bulk order's merged ZPL is prepared in the background, once however many ask for it, and one at a time per
 *   user; whoever asks meanwhile is told how far it got.
 */
export interface ZplWork {
  /** How many conversions may run at once. */
  readonly limit: number;
  /** `run` once for `key` among callers at the same moment: whoever comes while it runs shares its result. */
  once<T>(key: string, run: () => Promise<T>): Promise<T>;
  /** `run` once one of the `limit` conversion slots is free. */
  slot<T>(run: () => Promise<T>): Promise<T>;
  /** Merged files being prepared, by file key. */
  readonly preparing: Map<string, Preparation>;
  /** The file key each user is having prepared. */
  readonly byUser: Map<string, string>;
  /** How a preparation that failed ended, by file key, for the next request to hear once. */
  readonly failed: Map<string, unknown>;
}

export interface Preparation {
  /** Labels whose ZPL is in the store. */
  done: number;
  total: number;
  /** Settles when the preparation ends, either way (it never rejects). */
  finished: Promise<void>;
}

/** The default bound: a conversion per core, so conversions never queue for the cores behind each other. */
export const defaultZplConversions = (): number => availableParallelism();

export function createZplWork(limit = defaultZplConversions()): ZplWork {
  const inFlight = new Map<string, Promise<unknown>>();
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    limit,
    once<T>(key: string, run: () => Promise<T>): Promise<T> {
      const current = inFlight.get(key);
      if (current) return current as Promise<T>;
      const started = run().finally(() => inFlight.delete(key));
      inFlight.set(key, started);
      return started;
    },
    async slot<T>(run: () => Promise<T>): Promise<T> {
      if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
      else running++;
      try {
        return await run();
      } finally {
        // The slot passes straight to the next in line, so `running` never drops below the work at hand.
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    },
    preparing: new Map(),
    byUser: new Map(),
    failed: new Map(),
  };
}

let shared: ZplWork | null = null;
/** The process's conversions, for callers given none of their own. */
export const sharedZplWork = (): ZplWork => {
  shared ??= createZplWork();
  return shared;
};
