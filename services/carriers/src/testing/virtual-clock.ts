import type { RateClock, RateGate } from '../pool/rate-slots';

/** A clock for rate gates that moves only when a test moves it: no test waits on the machine's pace. */
export interface VirtualClock extends RateClock {
  /** Timers set and not yet fired. */
  readonly pending: number;
  /** Moves the clock to the earliest timer and fires every timer due then; false when none is set. */
  fireNext(): boolean;
}

export function createVirtualClock(start = 0): VirtualClock {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    setTimer(fn, ms) {
      const id = seq++;
      timers.set(id, { at: now + Math.max(0, ms), fn });
      return () => {
        timers.delete(id);
      };
    },
    get pending() {
      return timers.size;
    },
    fireNext() {
      if (timers.size === 0) return false;
      now = Math.max(now, Math.min(...[...timers.values()].map((t) => t.at)));
      for (const [id, t] of [...timers].sort(([a], [b]) => a - b)) {
        if (t.at > now || !timers.has(id)) continue;
        timers.delete(id);
        t.fn();
      }
      return true;
    },
  };
}

/**
 * Runs rate gates on a virtual clock until `done()`: each step waits (on the event loop, not on time) until no gate
 * is asking its store and `settled()` holds (e.g. every call the gates let go has reached the fake carrier), then
 * moves the clock to the next timer. Throws when nothing is left to fire and `done()` is still false.
 */
export async function runGates(
  clock: VirtualClock,
  gates: readonly Pick<RateGate, 'busy'>[],
  done: () => boolean,
  settled: () => boolean = () => true,
): Promise<void> {
  const quiet = () => gates.every((g) => !g.busy) && settled();
  for (;;) {
    // Store round trips and HTTP calls are real I/O: poll for them as expect.poll does, however slow the machine.
    const giveUpAt = Date.now() + 60_000;
    // What the last timer let go runs first (its callers' continuations), then the rest settles.
    await new Promise((resolve) => setImmediate(resolve));
    while (!(quiet() && (done() || clock.pending > 0))) {
      if (Date.now() > giveUpAt) throw new Error('the gates never settled');
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    if (done()) return;
    clock.fireNext();
  }
}
