import type { FastifyInstance } from 'fastify';
import { ConfigError } from './config';

export interface Running {
  app: FastifyInstance;
  host: string;
  port: number;
  /** Closes what the service opened besides the HTTP server (bus, database). */
  close(): Promise<void>;
}

/**
 * The composition root's outer shell: starts the service, and on SIGTERM or
 * SIGINT stops taking requests, finishes in-flight ones, closes connections
 * and exits. A bad configuration stops the process with its message.
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
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      running.app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, shutdownTimeoutMs);
    timer.unref();
    try {
      await running.app.close();
      await running.close();
      process.exit(0);
    } catch (e) {
      running.app.log.error({ err: e }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  // When the launcher dies without signalling us, don't linger as an orphan.
  if (process.send) process.on('disconnect', () => void stop('parent-exit'));
  return running;
}
