/**
 * A carrier's rate kept as evenly spaced send slots, handed out one at a time from a store every process that buys
 * shares (the orders database's `carrier_rate_slots`, for orders and every label worker), so N replicas together
 * send at most the carrier's rate, not N times it.
 *
 * A slot is the later of now, the end of a pause (`pause`, after the carrier answered 429) and the slot after the
 * last one handed out; the next is one spacing later. The spacing is (1 s + guard) / rate: `rate` consecutive
 * sends span at least 1 s + guard, so a carrier counting calls when they *arrive* sees at most `rate` in any one of
 * its seconds as long as no call reaches it more than the guard later than another (arrival jitter: connections,
 * event loops, the carrier's queue). A rate below 1 is one send per 1/rate seconds (+ guard); a fractional rate
 * above 1 is rounded down.
 */
export interface RateSlotStore {
  /**
   * Hands out the next `count` slots of `carrier` (1 when not given) for a process whose clock says `now`: the first
   * is the later of `now`, the pause's end and the slot after the last one handed out, the others follow it
   * `spacingMs` apart, and the next handed out comes one spacing after the last. Resolves to the first slot's time.
   */
  reserve(carrier: string, now: number, spacingMs: number, count?: number): Promise<number>;
  /** No slot of `carrier` is handed out before `until` (a pause already longer stays). */
  pause(carrier: string, until: number): Promise<void>;
}

/** The slots of one process, for a process that buys alone (tests, tools, the benchmark's carrier alone). */
export function createProcessRateSlots(): RateSlotStore {
  const rows = new Map<string, { next: number; pausedUntil: number }>();
  const rowOf = (carrier: string) => {
    const row = rows.get(carrier) ?? { next: Number.NEGATIVE_INFINITY, pausedUntil: Number.NEGATIVE_INFINITY };
    rows.set(carrier, row);
    return row;
  };
  return {
    async reserve(carrier, now, spacingMs, count = 1) {
      const row = rowOf(carrier);
      const slot = Math.max(row.next, now, row.pausedUntil);
      row.next = slot + count * spacingMs;
      return slot;
    },
    async pause(carrier, until) {
      const row = rowOf(carrier);
      row.pausedUntil = Math.max(row.pausedUntil, until);
    },
  };
}

/** The time a gate keeps: the system clock by default; tests drive a virtual one. */
export interface RateClock {
  now(): number;
  /** Calls `fn` once, `ms` from now; the returned function cancels it. */
  setTimer(fn: () => void, ms: number): () => void;
}

export const systemRateClock: RateClock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  },
};

export interface RateGateOptions {
  /** The carrier's id in the slot store. */
  carrier: string;
  ratePerSecond: number;
  /** Milliseconds added to the second the rate is spread over (default 0): the arrival jitter tolerated. */
  guardMs?: number;
  /** Where slots are handed out; this process's own when not given. */
  slots?: RateSlotStore;
  clock?: RateClock;
  /** A store that could not be reached: the gate tries again a second later, sending nothing meanwhile. */
  onError?: (err: unknown) => void;
}

/** What a carrier adapter is given to keep the operator's rate limit on the call that buys. */
export interface PurchaseGate {
  /** Resolves when the call may go. */
  take(): Promise<void>;
  /** The carrier answered 429: no call for `ms`. */
  pause(ms: number): void;
}

/** Calls wait their turn at a carrier's rate, in arrival order. */
export interface RateGate extends PurchaseGate {
  /** Resolves at the caller's slot. */
  take(): Promise<void>;
  /**
   * The carrier said too many (429, `Retry-After`): no call goes for `ms`, from this process or from any other
   * sharing the slot store; slots this process holds inside the pause are given up.
   */
  pause(ms: number): void;
  /** Calls waiting for their turn. */
  readonly waiting: number;
  /** The store is being asked for a slot or told of a pause (for tests driving a virtual clock: not yet on it). */
  readonly busy: boolean;
}

/** Slots held ahead at least, so the store's round trip never delays the next send: the one due and the one after. */
const HELD_AHEAD = 2;
/** The most of the rate one process holds ahead, in time: a quarter of a second's slots. */
const MAX_HELD_MS = 250;
const STORE_RETRY_MS = 1000;
/** The longest lead a slot is asked for (a store this slow is an outage, and the line waits for it anyway). */
const MAX_LEAD_MS = 1000;
/** Each round trip's share of the lead left after the next one: the lead follows a store getting faster again. */
const LEAD_DECAY = 0.95;

/** The spacing of a rate's slots: (1 s + guard) / rate, or (1/rate s + guard) below one a second. */
export function slotSpacingMs(ratePerSecond: number, guardMs = 0): number {
  if (!(Number.isFinite(ratePerSecond) && ratePerSecond > 0)) {
    throw new Error(`ratePerSecond must be above 0, got ${ratePerSecond}`);
  }
  if (!(Number.isFinite(guardMs) && guardMs >= 0)) throw new Error(`guardMs must be 0 or more, got ${guardMs}`);
  return ratePerSecond >= 1 ? (1000 + guardMs) / Math.floor(ratePerSecond) : Math.ceil(1000 / ratePerSecond) + guardMs;
}

/**
 * A carrier's gate: each `take` resolves, oldest first, at a slot from the store. A slot is used at its time or not
 * at all: one the gate reaches later than half the guard (a busy event loop, or a store that answered after the slot
 * was due) is given up, as its call would arrive bunched with the next ones.
 *
 * So that the store's answer comes before the slots it hands out, they are asked for a lead ahead of now (one and a
 * half times the slowest recent round trip to the store), and as many at once as that lead spans: one round trip
 * brings the slots of the next lead, so a slow store costs no rate. The gate holds slots only for callers waiting,
 * at least two and at most a quarter second's worth, so an idle process holds none and the rest of the rate goes to
 * whoever buys.
 */
export function createRateGate(opts: RateGateOptions): RateGate {
  const spacingMs = slotSpacingMs(opts.ratePerSecond, opts.guardMs);
  const lateMs = (opts.guardMs ?? 0) / 2;
  const clock = opts.clock ?? systemRateClock;
  const slots = opts.slots ?? createProcessRateSlots();
  const line: (() => void)[] = [];
  // Slots handed out and not yet used, soonest first.
  const held: number[] = [];
  let reserving = false;
  let cancelTimer: (() => void) | null = null;
  let pausedUntil = Number.NEGATIVE_INFINITY;
  // The pause last told to the store: a slot is asked for once it is recorded, so it lands after the pause.
  let pausing: Promise<void> = Promise.resolve();
  let pauses = 0;

  // How far ahead of now a slot is asked for, learnt from the store's round trips.
  let leadMs = 0;
  const mostHeld = Math.max(HELD_AHEAD, Math.floor(MAX_HELD_MS / spacingMs));

  const reserve = (count: number) => {
    reserving = true;
    let askedAt = 0;
    pausing
      .then(() => {
        askedAt = clock.now();
        return slots.reserve(opts.carrier, askedAt + leadMs, spacingMs, count);
      })
      .then(
        (first) => {
          reserving = false;
          const receivedAt = clock.now();
          leadMs = Math.min(MAX_LEAD_MS, Math.max(1.5 * (receivedAt - askedAt), leadMs * LEAD_DECAY));
          for (let i = 0; i < count; i++) held.push(first + i * spacingMs);
          held.sort((a, b) => a - b);
          pump();
        },
        (err: unknown) => {
          opts.onError?.(err);
          // Nothing is sent without a slot; the line waits and asks again.
          clock.setTimer(() => {
            reserving = false;
            pump();
          }, STORE_RETRY_MS);
        },
      );
  };

  function pump(): void {
    for (;;) {
      const slot = held[0];
      if (slot === undefined || line.length === 0) break;
      const now = clock.now();
      if (slot > now) break;
      held.shift();
      // Reached past its time (a timer firing late, a store answering late) or inside a pause: its call would not
      // arrive where the slot is, so another is asked for below, a lead ahead that covers the store's round trip.
      if (now - slot > lateMs || slot < pausedUntil) continue;
      (line.shift() as () => void)();
    }
    if (!reserving) {
      // Enough slots for the lead and the one after, no more than the callers waiting need.
      const wanted = Math.min(mostHeld, Math.max(HELD_AHEAD, Math.ceil(leadMs / spacingMs) + 1), line.length);
      if (wanted > held.length) reserve(wanted - held.length);
    }
    const next = held[0];
    if (cancelTimer === null && next !== undefined && line.length > 0) {
      cancelTimer = clock.setTimer(
        () => {
          cancelTimer = null;
          pump();
        },
        Math.max(0, next - clock.now()),
      );
    }
  }

  return {
    take() {
      return new Promise<void>((resolve) => {
        line.push(resolve);
        pump();
      });
    },
    pause(ms) {
      if (!(ms > 0)) return;
      const until = clock.now() + ms;
      pausedUntil = Math.max(pausedUntil, until);
      pauses++;
      pausing = slots
        .pause(opts.carrier, until)
        .catch((err: unknown) => opts.onError?.(err))
        .finally(() => {
          pauses--;
        });
    },
    get waiting() {
      return line.length;
    },
    get busy() {
      return reserving || pauses > 0;
    },
  };
}
