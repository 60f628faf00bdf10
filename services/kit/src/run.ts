import { closeSync, openSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { beginShutdown } from './app';
import { ConfigError } from './config';

export interface Running {
  app: FastifyInstance;
  host: string;
  port: number;
  /** Closes what the service opened besides the HTTP server (bus, database). */
  close(): Promise<void>;
  /** The grace period once a shutdown begins (`SHUTDOWN_TIMEOUT_MS`); overrides the one given to `runService`. */
  shutdownTimeoutMs?: number;
  /**
   * How long, after the signal, the service keeps serving while `/readyz`
   * answers 503 (`SHUTDOWN_DRAIN_MS`): load balancers and Kubernetes endpoints
   * take a moment to stop sending. Part of the grace period. Default 0.
   */
  drainMs?: number;
}

/**
 * The composition root's outer shell: starts the service, and on SIGTERM or
 * SIGINT shuts it down within the grace period:
 * 1. `/readyz` answers 503 from that moment, so a load balancer stops sending,
 *    and for `drainMs` everything else is still served;
 * 2. the HTTP server stops accepting connections, lets the requests in flight
 *    finish (new requests on open connections get 503) and closes idle ones;
 *    the app's close hooks run, e.g. the label worker finishes the labels it
 *    is buying and commits its offsets;
 * 3. what the service opened besides (bus, database) is closed;
 * then it exits 0. Past the grace period it exits 1 whatever is still running.
 * A bad configuration stops the process with its message (exit 78).
 */
export async function runService(name: string, start: () => Promise<Running>, shutdownTimeoutMs = 10_000) {
  let running: Running;
  try {
    running = await start();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${name}: ${e.message}\n`);
      process.exit(78);
    }
    process.stderr.write(`${name}: failed to start: ${(e as Error).stack ?? e}\n`);
    process.exit(1);
  }
  await running.app.listen({ host: running.host, port: running.port });
  const graceMs = running.shutdownTimeoutMs ?? shutdownTimeoutMs;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    beginShutdown(running.app);
    running.app.log.info({ signal, graceMs }, 'shutting down');
    const timer = setTimeout(() => {
      running.app.log.error({ graceMs }, 'shutdown timed out; exiting');
      process.exit(1);
    }, graceMs);
    timer.unref();
    try {
      if (running.drainMs) await new Promise((resolve) => setTimeout(resolve, running.drainMs));
      await running.app.close();
      await running.close();
      running.app.log.info('shut down cleanly');
      process.exit(0);
    } catch (e) {
      running.app.log.error({ err: e }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  // When the launcher dies without signalling us, don't linger as an orphan.
  if (process.send) {
    process.on('disconnect', () => {
      sendOutputNowhere();
      void stop('parent-exit');
    });
  }
  return running;
}

/**
 * The launcher that read our stdout and stderr is gone, so both are broken pipes. pino writes
 * synchronously and retries a failed write, which would block the process (shutdown timer
 * included) on its next log line: point both at /dev/null instead. A closed descriptor is
 * reused by the next open, so fd 1 and then fd 2 become /dev/null.
 */
function sendOutputNowhere() {
  for (const fd of [1, 2]) {
    try {
      closeSync(fd);
      openSync('/dev/null', 'w');
    } catch {
      // Nothing more to do: the process exits shortly either way.
    }
  }
}
