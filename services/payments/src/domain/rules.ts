import { AppError } from '@flatship/kit';
import { isId } from '@flatship/proto';
import { MESSAGES } from './messages';

/** User ids are auth's uuids; anything else cannot name an account (and must not reach a uuid column). */
export const isUserId = isId;

/**
 * Far above any real balance, and below 2^53 so cents stay exact as
 * JavaScript numbers all the way from the bigint columns to the wire.
 */
export const MAX_CENTS = 1_000_000_000_000;

export function assertUserId(id: string, message: string = MESSAGES.invalidUserId): void {
  if (!isUserId(id)) throw new AppError('VALIDATION_FAILED', message);
}

export function assertAmount(cents: number): void {
  if (cents > MAX_CENTS) throw new AppError('VALIDATION_FAILED', MESSAGES.amountTooLarge);
}
