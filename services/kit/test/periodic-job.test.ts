import { afterEach, describe, expect, it, vi } from 'vitest';
import { startPeriodicJob } from '../src/periodic-job';

const logger = () => ({ error: vi.fn() });

describe('startPeriodicJob', () => {
  afterEach(() => vi.useRealTimers());

  it('runs every interval, and at once only when asked', async () => {
    vi.useFakeTimers();
    const run = vi.fn(async () => {});
    const late = startPeriodicJob({ run, intervalMs: 100, logger: logger(), failedMessage: 'failed' });
    expect(run).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(250);
    expect(run).toHaveBeenCalledTimes(2);
    await late.stop();

    const early = vi.fn(async () => {});
    const eager = startPeriodicJob({
      run: early,
      intervalMs: 100,
      runAtStart: true,
      logger: logger(),
      failedMessage: 'x',
    });
    expect(early).toHaveBeenCalledTimes(1);
    await eager.stop();
  });

  it('never starts a round while the last one still runs', async () => {
    vi.useFakeTimers();
    let finish!: () => void;
    const run = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const job = startPeriodicJob({ run, intervalMs: 100, logger: logger(), failedMessage: 'failed' });
    await vi.advanceTimersByTimeAsync(350);
    expect(run).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(100);
    expect(run).toHaveBeenCalledTimes(2);
    finish();
    await job.stop();
  });

  it('logs a failed round and goes on', async () => {
    vi.useFakeTimers();
    const log = logger();
    const boom = new Error('boom');
    const run = vi.fn().mockRejectedValueOnce(boom).mockResolvedValue(undefined);
    const job = startPeriodicJob({ run, intervalMs: 100, logger: log, failedMessage: 'round failed' });
    await vi.advanceTimersByTimeAsync(200);
    expect(log.error).toHaveBeenCalledWith({ err: boom }, 'round failed');
    expect(run).toHaveBeenCalledTimes(2);
    await job.stop();
  });

  it('stop waits for the round in progress and starts no more', async () => {
    vi.useFakeTimers();
    let finish!: () => void;
    let done = false;
    const run = vi.fn(() =>
      new Promise<void>((resolve) => (finish = resolve)).then(() => (done = true)).then(() => {}),
    );
    const job = startPeriodicJob({ run, intervalMs: 100, runAtStart: true, logger: logger(), failedMessage: 'x' });
    const stopping = job.stop();
    finish();
    await stopping;
    expect(done).toBe(true);
    await vi.advanceTimersByTimeAsync(500);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
