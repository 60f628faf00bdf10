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

async function ask<T>(path: string): Promise<T> {
  const res = await fetch(`${inject('e2eServices')}${path}`);
  if (!res.ok) throw new Error(`the shared end-to-end services could not give ${path}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** The run's shared stack, started by the first file that asks for it. */
export function sharedStack(): Promise<SharedStack> {
  return ask<SharedStack>('/stack');
}

/** The emails the shared stack has sent to `address` so far. */
export function mailsTo(address: string): Promise<CapturedMail[]> {
  return ask<CapturedMail[]>(`/mails?to=${encodeURIComponent(address)}`);
}

/**
 * The run's one Chromium (./global-setup.ts launches it on the first request), connected to for this file. Each
 * test opens contexts of its own; `close()` only disconnects, closing the contexts this file opened.
 */
export async function sharedBrowser(): Promise<Browser> {
  const { wsEndpoint } = await ask<{ wsEndpoint: string }>('/browser');
  return chromium.connect(wsEndpoint);
}
