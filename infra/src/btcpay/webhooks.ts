import { createHmac, randomBytes } from 'node:crypto';
import type { WebhookEvent } from '@flatship/proto';

/** `sha256=<lowercase hex HMAC-SHA256 of the body>`, the value of BTCPay's `BTCPay-Sig` header. */
export function signBody(body: string | Buffer, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Roughly what BTCPay Server does: a handful of attempts spread over about a minute. */
export const DEFAULT_RETRY_DELAYS_MS = [1000, 2000, 5000, 10_000, 20_000, 30_000];

/** The two levels the sender logs at; pino and Fastify's logger both fit. */
export interface WebhookLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface WebhookSenderOptions {
  url: string;
  secret: string;
  webhookId: string;
  logger: WebhookLogger;
  /** Waits before each retry; one entry per retry. */
  retryDelaysMs?: number[];
  attemptTimeoutMs?: number;
}

type EventBody = Omit<WebhookEvent, 'deliveryId' | 'isRedelivery' | 'originalDeliveryId' | 'webhookId'>;

const newDeliveryId = () => randomBytes(12).toString('base64url');

/**
 * Delivers webhook events: one queue per invoice so a receiver sees an
 * invoice's events in the order they happened, each signed over the exact
 * bytes sent, retried on a network error or a non-2xx answer. A retry is a
 * new delivery marked `isRedelivery` that names the original, as BTCPay does.
 */
export function createWebhookSender(opts: WebhookSenderOptions) {
  const delays = opts.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const attemptTimeout = opts.attemptTimeoutMs ?? 10_000;
  const queues = new Map<string, Promise<void>>();
  const timers = new Set<{ timer: NodeJS.Timeout; wake: () => void }>();
  let closed = false;

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          timers.delete(entry);
          resolve();
        }, ms),
        wake: resolve,
      };
      timers.add(entry);
    });

  async function attempt(event: WebhookEvent): Promise<string | null> {
    const body = JSON.stringify(event);
    try {
      const res = await fetch(opts.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'btcpay-sig': signBody(body, opts.secret) },
        body,
        signal: AbortSignal.timeout(attemptTimeout),
      });
      await res.body?.cancel();
      return res.ok ? null : `answered ${res.status}`;
    } catch (e) {
      const cause = (e as { cause?: { code?: string } }).cause?.code;
      return cause ?? (e as Error).message;
    }
  }

  async function deliver(base: EventBody): Promise<void> {
    const original = newDeliveryId();
    let event: WebhookEvent = { deliveryId: original, webhookId: opts.webhookId, isRedelivery: false, ...base };
    for (let retry = 0; ; retry++) {
      const failure = await attempt(event);
      if (failure === null) {
        opts.logger.info({ type: event.type, invoiceId: event.invoiceId, retry }, 'webhook delivered');
        return;
      }
      if (closed) return;
      if (retry >= delays.length) {
        opts.logger.warn(
          { type: event.type, invoiceId: event.invoiceId, url: opts.url },
          `webhook ${event.type} for invoice ${event.invoiceId} gave up after ${retry + 1} attempts: ${failure}`,
        );
        return;
      }
      opts.logger.warn(
        { type: event.type, invoiceId: event.invoiceId },
        `webhook ${event.type} for invoice ${event.invoiceId} failed (${failure}); retrying in ${delays[retry]! / 1000} s`,
      );
      await wait(delays[retry]!);
      if (closed) return;
      event = { ...event, deliveryId: newDeliveryId(), isRedelivery: true, originalDeliveryId: original };
    }
  }

  return {
    /** Queues an event behind the earlier events of the same invoice. */
    send(event: EventBody): void {
      if (closed) return;
      const previous = queues.get(event.invoiceId) ?? Promise.resolve();
      const next = previous.then(() => deliver(event));
      queues.set(event.invoiceId, next);
      void next.then(() => {
        if (queues.get(event.invoiceId) === next) queues.delete(event.invoiceId);
      });
    },
    /** Resolves when nothing is queued or waiting for a retry. */
    async idle(): Promise<void> {
      while (queues.size > 0) await Promise.all([...queues.values()]);
    },
    /** Drops pending retries; an attempt in flight finishes on its own. */
    close(): void {
      closed = true;
      for (const entry of timers) {
        clearTimeout(entry.timer);
        entry.wake();
      }
      timers.clear();
    },
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
