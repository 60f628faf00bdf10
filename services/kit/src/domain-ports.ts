/**
 * Ports every service's domain code takes in its `deps`, declared once so a use case, its test and its composition
 * root agree on one shape.
 */

/** The time, injected so a test can set it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The subset of a pino logger the domain writes to. */
export interface DomainLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
