export interface PeriodicJob {
  /** Stops the timer and waits for a round in progress. */
  stop(): Promise<void>;
}

export interface PeriodicJobOptions {
  /** One round of the work. */
  run: () => Promise<void>;
  intervalMs: number;
  /** Runs a first round at once instead of after the first interval. */
  runAtStart?: boolean;
  /** Where a failed round is reported: `failedMessage` with the error as `err`. */
  logger: { error(obj: object, msg: string): void };
  failedMessage: string;
}

/**
 * Runs `run` every `intervalMs`, one round at a time: a tick that finds the
 * previous round still running is skipped, so a slow round never stacks up
 * others. A failed round is logged and the loop goes on. The timer does not
 * keep the process alive; `stop` waits for the round in progress.
 */
export function startPeriodicJob(opts: PeriodicJobOptions): PeriodicJob {
  let running: Promise<void> | undefined;
  let stopped = false;
  const round = async () => {
    try {
      await opts.run();
    } catch (err) {
      opts.logger.error({ err }, opts.failedMessage);
    }
  };
  const tick = () => {
    if (running || stopped) return;
    running = round().finally(() => {
      running = undefined;
    });
  };
  if (opts.runAtStart) tick();
  const timer = setInterval(tick, opts.intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
