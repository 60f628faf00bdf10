import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BrowserServer, chromium } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import type { TestProject } from 'vitest/node';
import { type RunningStack, startStack } from '../src/testing/start-stack';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './browser';
import type { CapturedMail, SharedStack } from './shared-stack';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The loopback address of the run's shared end-to-end services (./shared-stack.ts reads it). */
    e2eServices: string;
  }
}

/**
 * Settings of the one stack end-to-end files share, each there for a file that needs it and harmless to the rest:
 * - SMTP_URL (added below), MAIL_FROM: password reset emails reach the capture here (admin-labels-invites-reset).
 * - SANDBOX_CARRIER_BALANCE: below the $100 warning threshold, so the admin dashboard warns (admin-only-pages).
 *   The sandbox only reports the figure; purchases do not draw on it.
 * - RATE_LIMIT_AUTH_MAX: every file signs in and registers from 127.0.0.1 within the same minute, and the
 *   authorisation matrix alone makes hundreds of such calls. The default limit is checked on a stack of its own
 *   (infra/test/stack.test.ts) and in gateway/test/rate-limit.test.ts.
 */
export const SHARED_STACK_ENV = {
  MAIL_FROM: 'Flatship <no-reply@ship.test>',
  SANDBOX_CARRIER_BALANCE: '42.5',
  RATE_LIMIT_AUTH_MAX: '100000',
};

/**
 * How long the stack and the browser outlive the last file that held them. Files of the project run one after
 * another in each worker, so a new one usually asks within a second; once none has for this long, the project's
 * files are done and the rest of the run should not share the machine with an idle stack.
 */
const IDLE_STOP_MS = 15_000;

let server: Server | undefined;
let smtp: SMTPServer | undefined;
let stack: Promise<RunningStack> | undefined;
let browser: Promise<BrowserServer> | undefined;
/** Resolves once the last stop is complete: a request after an idle stop starts afresh only then. */
let stopped: Promise<unknown> = Promise.resolve();
let holders = 0;
let idleTimer: NodeJS.Timeout | undefined;

function stopShared(): Promise<unknown> {
  const [s, b] = [stack, browser];
  stack = undefined;
  browser = undefined;
  stopped = Promise.all([s?.then((x) => x.stop()).catch(() => {}), b?.then((x) => x.close()).catch(() => {})]);
  return stopped;
}

/** A file (or a request on its way) uses the stack or the browser. */
function acquire() {
  holders++;
  clearTimeout(idleTimer);
}

/** That use ended; with no other, both stop IDLE_STOP_MS later unless a file asks again. */
function release() {
  holders--;
  if (holders > 0) return;
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => void stopShared(), IDLE_STOP_MS);
}

/**
 * Answers with one line of JSON and keeps the response open for as long as the asking file runs: its process
 * holds the connection (./shared-stack.ts), and the stack counts as in use until every holder has gone.
 */
function hold(res: ServerResponse, body: unknown) {
  // The file gave up waiting (its hook timed out): it holds nothing.
  if (!res.socket || res.socket.destroyed) return;
  acquire();
  res.once('close', release);
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  res.write(`${JSON.stringify(body)}\n`);
}

/**
 * Serves, on a loopback port, what end-to-end files share: one product stack, one Chromium and the mail the
 * stack sends. The stack and the browser start on the first request for them, so a run that selects no
 * end-to-end file starts neither, and stop once no file has held them for IDLE_STOP_MS.
 */
export async function setup(project: TestProject) {
  const mails: CapturedMail[] = [];
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        done();
      });
    },
  });
  smtp.listen(0, '127.0.0.1');
  await once(smtp.server, 'listening');
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  const sharedStack = async (): Promise<SharedStack> => {
    await stopped;
    stack ??= startStack({ env: { ...SHARED_STACK_ENV, SMTP_URL: `smtp://127.0.0.1:${smtpPort}` } });
    const { url, btcpay, adminEmail, adminPassword, dataDir, launcher } = await stack;
    if (!btcpay) throw new Error('the shared stack has no BTCPay simulator');
    return { url, btcpay, adminEmail, adminPassword, dataDir, readyOutput: launcher.output() };
  };
  const sharedBrowser = async () => {
    await stopped;
    browser ??= chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    return { wsEndpoint: (await browser).wsEndpoint() };
  };

  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const fail = (e: Error) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(e.message);
    };
    if (url.pathname === '/stack' || url.pathname === '/browser') {
      // Held from the request on, so an idle stop cannot come between the answer and its use.
      acquire();
      void (url.pathname === '/stack' ? sharedStack() : sharedBrowser())
        .then((body) => hold(res, body), fail)
        .finally(release);
    } else if (url.pathname === '/mails') {
      const to = url.searchParams.get('to') ?? '';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(mails.filter((m) => m.to.includes(to))));
    } else {
      fail(new Error(`no such path: ${url.pathname}`));
    }
  });
  // A first request waits for a whole stack to start, and an answer stays open while its file runs.
  server.requestTimeout = 0;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  project.provide('e2eServices', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
}

export async function teardown() {
  clearTimeout(idleTimer);
  server?.closeAllConnections();
  await Promise.all([
    stopShared(),
    new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
    new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve())),
  ]);
}
