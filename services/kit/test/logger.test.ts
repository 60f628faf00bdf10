import { Writable } from 'node:stream';
import { expect, test } from 'vitest';
import { createServiceApp } from '../src/app';
import { createLogger } from '../src/logger';

function capture(level = 'debug') {
  const lines: { level: number; msg: string; awayMs?: number }[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger('test', level, sink), lines };
}

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4140'), { code: 'ECONNREFUSED' });
const terminated = () =>
  Object.assign(new Error('terminating connection due to unexpected postmaster exit'), { code: '57P01' });

test('a database outage is one warning, the rest at debug, then one line when it is back', () => {
  const { logger, lines } = capture();
  logger.warn({ err: terminated() }, 'event bus LISTEN connection failed; reconnecting');
  for (let i = 0; i < 20; i++)
    logger.error({ err: refused() }, 'event bus consumer failed to read or commit; retrying');
  logger.warn({ detail: 'Connection Error', databaseClient: true }, 'database client warning');
  logger.error({ err: new Error('duplicate key value violates unique constraint') }, 'request failed');
  logger.info({ databaseReachable: true }, 'event bus LISTEN connection restored');

  const loud = lines.filter((l) => l.level >= 40);
  expect(loud.map((l) => l.msg)).toEqual([
    'event bus LISTEN connection failed; reconnecting (database unreachable; further database errors are logged at debug level until it is back)',
    // Not about reaching the database: never quieted.
    'request failed',
    expect.stringMatching(/^database reachable again after \d+\.\d s$/),
  ]);
  expect(lines.filter((l) => l.level === 20)).toHaveLength(21);
  expect(loud.at(-1)?.awayMs).toBeGreaterThanOrEqual(0);
});

test('the next outage is reported again, and a reconnect without an outage says nothing', () => {
  const { logger, lines } = capture('info');
  logger.info({ databaseReachable: true }, 'event bus LISTEN connection restored');
  logger.error({ err: refused() }, 'outbox relay failed');
  logger.error({ err: refused() }, 'outbox relay failed');
  logger.info({ databaseReachable: true }, 'event bus LISTEN connection restored');
  logger.error({ err: refused() }, 'outbox relay failed');
  const loud = lines.filter((l) => l.level >= 40).map((l) => l.msg);
  expect(loud).toEqual([
    expect.stringMatching(/^outbox relay failed \(database unreachable/),
    expect.stringMatching(/^database reachable again/),
    expect.stringMatching(/^outbox relay failed \(database unreachable/),
  ]);
  // At info level the quieted lines are dropped, not written.
  expect(lines.filter((l) => l.level < 30)).toHaveLength(0);
});

test('a request is one line when it is answered: method, path (query hidden), id, status and time', async () => {
  const { logger, lines } = capture('info');
  const app = createServiceApp({ name: 'test', logger });
  app.get('/api/things', async () => ({ ok: true }));
  try {
    await app.inject({ url: '/api/things?token=secret', headers: { 'x-request-id': 'req-1' } });
    // Probes stay quiet at info.
    await app.inject('/healthz');
  } finally {
    await app.close();
  }
  const requestLines = lines.filter((l) => 'req' in l || 'res' in l) as unknown as {
    msg: string;
    req: { method: string; url: string; id: string };
    res: { statusCode: number };
    responseTime: number;
  }[];
  expect(requestLines).toEqual([
    {
      ...requestLines[0],
      msg: 'request completed',
      req: { method: 'GET', url: '/api/things?[redacted]', id: 'req-1' },
      res: { statusCode: 200 },
    },
  ]);
  expect(requestLines[0]!.responseTime).toBeGreaterThanOrEqual(0);
});
