import { get } from 'node:http';
import { type Browser, chromium } from 'playwright-core';
import { inject } from 'vitest';
import type { StackBtcpay } from '../src/testing/start-stack';

/**
 * The product stack every end-to-end file of a run shares (./global-setup.ts starts it on the first request).
 * Other files use it at the same time: a test makes its own users (unique emails) and asserts on its own records,
 * never on how many of something the whole stack holds. A test that stops processes, restarts the launcher or
 * needs other settings starts a stack of its own with `startStack`.
 */
export interface SharedStack {
  url: string;
  btcpay: StackBtcpay;
  adminEmail: string;
  adminPassword: string;
  dataDir: string;
  /** What the launcher printed up to its ready block. */
  readyOutput: string;
}

/** An email the shared stack sent, as the capturing SMTP server received it. */
export interface CapturedMail {
  to: string[];
  raw: string;
}

const held = new Map<string, Promise<unknown>>();

/**
 * Asks the run's shared services for `path` and keeps the answer's connection open until this file's process
 * ends: that is how the global setup knows the stack and the browser are still in use. Asked once per file.
 */
function hold<T>(path: string): Promise<T> {
  let answer = held.get(path);
  if (!answer) {
    answer = new Promise((resolve, reject) => {
      const req = get(`${inject('e2eServices')}${path}`, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          const line = text.indexOf('\n');
          if (res.statusCode === 200 && line >= 0) {
            // Held, not waited on: the open connection must not keep the file's process alive.
            res.socket.unref();
            resolve(JSON.parse(text.slice(0, line)));
          }
        });
        res.on('end', () => reject(new Error(`the shared end-to-end services could not give ${path}: ${text}`)));
      });
      req.on('error', reject);
    });
    held.set(path, answer);
  }
  return answer as Promise<T>;
}

/** The run's shared stack, started by the first file that asks for it. */
export function sharedStack(): Promise<SharedStack> {
  return hold<SharedStack>('/stack');
}

/**
 * The run's one Chromium (./global-setup.ts launches it on the first request), connected to for this file. Each
 * test opens contexts of its own; `close()` only disconnects, closing the contexts this file opened.
 */
export async function sharedBrowser(): Promise<Browser> {
  const { wsEndpoint } = await hold<{ wsEndpoint: string }>('/browser');
  return chromium.connect(wsEndpoint);
}

/** The emails the shared stack has sent to `address` so far. */
export async function mailsTo(address: string): Promise<CapturedMail[]> {
  const res = await fetch(`${inject('e2eServices')}/mails?to=${encodeURIComponent(address)}`);
  if (!res.ok) throw new Error(`the shared end-to-end services could not give the mails: ${await res.text()}`);
  return (await res.json()) as CapturedMail[];
}
