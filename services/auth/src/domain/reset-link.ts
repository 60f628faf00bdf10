import { createHash, randomBytes } from 'node:crypto';
import { PASSWORD_RESET_TTL_MINUTES } from '@flatship/proto';
import type { Clock, PasswordResetsRepo, Tx } from './ports';

export interface ResetLinkDeps {
  resets: PasswordResetsRepo;
  clock: Clock;
  /** Where users open the web app, e.g. https://ship.example.com; the link points at its reset page. */
  publicUrl: string;
}

/** Only this digest of a token is stored, so the table alone opens no account. */
export const hashResetToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** A new single-use link for the user, valid for PASSWORD_RESET_TTL_MINUTES; earlier links stay valid until used or expired. */
export async function createResetLink(
  deps: ResetLinkDeps,
  userId: string,
  tx?: Tx,
): Promise<{ link: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(deps.clock.now().getTime() + PASSWORD_RESET_TTL_MINUTES * 60_000);
  await deps.resets.insert({ userId, tokenHash: hashResetToken(token), expiresAt }, tx);
  const link = new URL('/reset-password', deps.publicUrl);
  link.searchParams.set('token', token);
  return { link: link.toString(), expiresAt };
}
