import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { isDatabaseUnavailable } from '../db-basics';
import type { BusLogger, BusMessage, OutgoingMessage, SubscribeOptions } from './port';

export const DEFAULT_MAX_ATTEMPTS = 10;

/** The dead-letter topic of a topic. */
export const deadLetterTopic = (topic: string): string => `${topic}.dlq`;

/** Headers a dead-lettered message carries besides its own. */
export const DEAD_LETTER_HEADERS = {
  /** `max-attempts` (the handler kept failing) or `schema` (the value failed the subscription's schema). */
  reason: 'x-dead-letter-reason',
  topic: 'x-dead-letter-topic',
  partition: 'x-dead-letter-partition',
  offset: 'x-dead-letter-offset',
  group: 'x-dead-letter-group',
  /** The last handler error, or what the schema check found. */
  error: 'x-dead-letter-error',
  attempts: 'x-dead-letter-attempts',
} as const;

export type DeadLetterReason = 'max-attempts' | 'schema';

export interface DeadLetter {
  message: BusMessage;
  reason: DeadLetterReason;
  error: string;
  attempts: number;
}

/** The message as it goes to `<topic>.dlq`: same key, value and headers, plus where it came from and why. */
export function deadLetterMessage(group: string, d: DeadLetter): OutgoingMessage {
  const m = d.message;
  return {
    key: m.key,
    value: m.value,
    headers: {
      ...m.headers,
      [DEAD_LETTER_HEADERS.reason]: d.reason,
      [DEAD_LETTER_HEADERS.topic]: m.topic,
      [DEAD_LETTER_HEADERS.partition]: String(m.partition),
      [DEAD_LETTER_HEADERS.offset]: m.offset,
      [DEAD_LETTER_HEADERS.group]: group,
      // Header values are bounded: a stack-sized message would bloat every copy of the dead letter.
      [DEAD_LETTER_HEADERS.error]: d.error.slice(0, 1000),
      [DEAD_LETTER_HEADERS.attempts]: String(d.attempts),
    },
  };
}

/** What is wrong with a value, or undefined when it passes the schema. */
export function schemaProblem(schema: TSchema, value: unknown): string | undefined {
  if (Value.Check(schema, value)) return undefined;
  for (const err of Value.Errors(schema, value)) {
    const e = err as { instancePath?: string; message: string };
    return `${e.instancePath ? `${e.instancePath} ` : 'value '}${e.message}`;
  }
  return 'value does not match the schema';
}

const describe = (err: unknown): string => (err instanceof Error ? err.message || err.name : String(err));

export interface DeliverySettings {
  retryDelayMs: number;
  maxRetryDelayMs: number;
}

export interface ChunkContext {
  group: string;
  options: SubscribeOptions;
  settings: DeliverySettings;
  logger: BusLogger;
  /** Publishes dead letters; throws when it could not (the caller retries it like a handler). */
  deadLetter(letters: DeadLetter[]): Promise<void>;
  /** False once the partition is being given up or the consumer is closing: stop retrying, commit nothing. */
  stillOwned(): boolean;
  /** Waits between attempts; may end early when the partition is given up (and may heartbeat meanwhile). */
  wait(ms: number): Promise<void>;
  /** True when the process is being killed: nothing is logged or retried any more. */
  crashed?(): boolean;
  /** What makes a message unreadable before any schema is applied (e.g. a value that is not JSON). */
  problemOf?(message: BusMessage): string | undefined;
}

/**
 * Hands one chunk of consecutive messages of a partition (one message for a
 * handler, up to maxBatchSize for a batch handler) to the subscriber: values
 * failing the subscription's schema and messages whose handler kept failing go
 * to the dead-letter topic; the rest are handled. Resolves true when every
 * message is done with and the offset past the chunk may be committed, false
 * when the partition was given up meanwhile (the next owner starts again from
 * the committed offset).
 */
export async function deliverChunk(ctx: ChunkContext, messages: BusMessage[]): Promise<boolean> {
  const { options, logger, group } = ctx;
  const maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
  const letters: DeadLetter[] = [];
  let valid = messages;
  if (options.schema || ctx.problemOf) {
    const schema = options.schema;
    valid = [];
    for (const message of messages) {
      const problem = ctx.problemOf?.(message) ?? (schema ? schemaProblem(schema, message.value) : undefined);
      if (problem === undefined) valid.push(message);
      else {
        logger.error(
          { group, topic: message.topic, partition: message.partition, offset: message.offset, problem },
          'event fails its schema; sending it to the dead-letter topic',
        );
        letters.push({ message, reason: 'schema', error: problem, attempts: 0 });
      }
    }
  }
  // Dead letters go out before the chunk is handled, so a crash in between redelivers rather than loses them.
  if (letters.length > 0 && !(await sendDeadLetters(ctx, letters))) return false;
  if (valid.length === 0) return true;

  const handle = (slice: BusMessage[]) =>
    options.batchHandler ? options.batchHandler(slice) : options.handler!(slice[0]!);

  let delay = ctx.settings.retryDelayMs;
  let attempts = 0;
  let lastError = '';
  for (let tries = 1; ; tries++) {
    try {
      await handle(valid);
      return true;
    } catch (err) {
      if (ctx.crashed?.()) return false;
      // An unreachable database is an outage, not a bad message: it is retried without using up attempts.
      const outage = isDatabaseUnavailable(err);
      if (!outage) attempts++;
      lastError = describe(err);
      const first = valid[0]!;
      logger.error(
        { err, group, topic: first.topic, partition: first.partition, offset: first.offset, attempt: tries },
        attempts >= maxAttempts
          ? 'event handler failed; out of attempts'
          : 'event handler failed; the message will be retried',
      );
    }
    if (!ctx.stillOwned()) return false;
    if (attempts >= maxAttempts) break;
    await ctx.wait(delay);
    if (!ctx.stillOwned()) return false;
    delay = Math.min(delay * 2, ctx.settings.maxRetryDelayMs);
  }

  // Out of attempts. A batch is tried once more message by message, so one bad message does not take its neighbours along.
  const failed: DeadLetter[] = [];
  if (valid.length === 1) failed.push({ message: valid[0]!, reason: 'max-attempts', error: lastError, attempts });
  else {
    for (const message of valid) {
      try {
        await handle([message]);
      } catch (err) {
        if (ctx.crashed?.()) return false;
        failed.push({ message, reason: 'max-attempts', error: describe(err), attempts: attempts + 1 });
      }
      if (!ctx.stillOwned()) return false;
    }
  }
  return failed.length === 0 || sendDeadLetters(ctx, failed);
}

async function sendDeadLetters(ctx: ChunkContext, letters: DeadLetter[]): Promise<boolean> {
  let delay = ctx.settings.retryDelayMs;
  for (;;) {
    try {
      await ctx.deadLetter(letters);
      for (const l of letters) {
        ctx.logger.warn(
          {
            group: ctx.group,
            topic: l.message.topic,
            partition: l.message.partition,
            offset: l.message.offset,
            reason: l.reason,
            deadLetterTopic: deadLetterTopic(l.message.topic),
          },
          'event sent to the dead-letter topic',
        );
      }
      return true;
    } catch (err) {
      if (ctx.crashed?.()) return false;
      ctx.logger.error({ err, group: ctx.group }, 'could not publish to the dead-letter topic; retrying');
    }
    if (!ctx.stillOwned()) return false;
    await ctx.wait(delay);
    if (!ctx.stillOwned()) return false;
    delay = Math.min(delay * 2, ctx.settings.maxRetryDelayMs);
  }
}

/** Groups dead letters by their dead-letter topic, in order. */
export function byDeadLetterTopic(group: string, letters: DeadLetter[]): Map<string, OutgoingMessage[]> {
  const out = new Map<string, OutgoingMessage[]>();
  for (const l of letters) {
    const topic = deadLetterTopic(l.message.topic);
    const list = out.get(topic) ?? [];
    list.push(deadLetterMessage(group, l));
    out.set(topic, list);
  }
  return out;
}
