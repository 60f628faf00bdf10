import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
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
 * - SMTP_URL, MAIL_FROM: password reset emails reach the capture below (admin-labels-invites-reset).
 * - SANDBOX_CARRIER_BALANCE: below the $100 warning threshold, so the admin dashboard warns (admin-only-pages).
 *   The sandbox only reports the figure; purchases do not draw on it.
 * - RATE_LIMIT_AUTH_MAX: every file signs in and registers from 127.0.0.1 within the same minute, and the matrix
 *   alone makes hundreds of such calls. The default limit is checked on a stack of its own (test/stack.test.ts)
 *   and in gateway/test/rate-limit.test.ts.
 */
export const SHARED_STACK_ENV = {
  MAIL_FROM: 'Flatship <no-reply@ship.test>',
  SANDBOX_CARRIER_BALANCE: '42.5',
  RATE_LIMIT_AUTH_MAX: '100000',
};

let server: Server | undefined;
let smtp: SMTPServer | undefined;
let stack: Promise<RunningStack> | undefined;
let browser: Promise<BrowserServer> | undefined;

/**
 * Serves, on a loopback port, what end-to-end files share for the whole run: one product stack, one Chromium
 * and the mail the stack sends. Each starts on the first request for it, so a run without end-to-end files
 * starts neither; test files reach them through ./shared-stack.ts and ./browser.ts.
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

  const startShared = async (): Promise<SharedStack> => {
    stack ??= startStack({ env: { ...SHARED_STACK_ENV, SMTP_URL: `smtp://127.0.0.1:${smtpPort}` } });
    const { url, btcpay, adminEmail, adminPassword, dataDir, launcher } = await stack;
    if (!btcpay) throw new Error('the shared stack has no BTCPay simulator');
    return { url, btcpay, adminEmail, adminPassword, dataDir, readyOutput: launcher.output() };
  };
  const startBrowser = async () => {
    browser ??= chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    return { wsEndpoint: (await browser).wsEndpoint() };
  };

  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const answer = async () => {
      if (url.pathname === '/stack') return startShared();
      if (url.pathname === '/browser') return startBrowser();
      if (url.pathname === '/mails') {
        const to = url.searchParams.get('to') ?? '';
        return mails.filter((m) => m.to.includes(to));
      }
      throw new Error(`no such path: ${url.pathname}`);
    };
    answer().then(
      (body) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      },
      (e: Error) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(e.message);
      },
    );
  });
  // A first request waits for a whole stack to start.
  server.requestTimeout = 0;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  project.provide('e2eServices', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
}

export async function teardown() {
  await Promise.all([
    stack?.then((s) => s.stop()).catch(() => {}),
    browser?.then((b) => b.close()).catch(() => {}),
    new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
    new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve())),
  ]);
}
