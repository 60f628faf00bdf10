import { type Static, Type } from 'typebox';

export const ROLES = ['admin', 'friend', 'user'] as const;
// Spelled out: a Union over `ROLES.map(...)` (an array, not a tuple) makes the static type `never`.
export const RoleSchema = Type.Union([Type.Literal('admin'), Type.Literal('friend'), Type.Literal('user')]);
export type Role = Static<typeof RoleSchema>;

export const ACTIVATIONS = ['allow', 'block'] as const;
export const ActivationSchema = Type.Union([Type.Literal('allow'), Type.Literal('block')]);
export type Activation = Static<typeof ActivationSchema>;

/**
 * Emails are compared and stored trimmed and lowercased, so "A@X.com " and
 * "a@x.com" are one account. Auth looks accounts up by it, and the gateway
 * keys its per-email login limit by it, so the two always mean one account.
 */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The signed-in user as the SPA holds it (spec doc 1 §3). Money is dollars with 2 decimals. */
export const SessionUserSchema = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  avatar: Type.String(),
  user_role: RoleSchema,
  activation: ActivationSchema,
  referralCode: Type.String(),
  referredBy: Type.Union([Type.String(), Type.Null()]),
  balance: Type.Number(),
  totalDeposit: Type.Number(),
  totalSpent: Type.Number(),
  createdAt: Type.String(),
});
export type SessionUser = Static<typeof SessionUserSchema>;

/** Claims carried by every access token. */
export const TokenClaimsSchema = Type.Object({
  sub: Type.String(),
  role: RoleSchema,
  ver: Type.Integer(),
  /** Set on login-as tokens: the admin who is acting as the user. */
  imp: Type.Optional(Type.String()),
  /**
   * Set on login-as tokens: the admin's impersonation version when the token was issued. The token is refused once
   * the admin's moves on (they ended the visit, or their sessions were revoked).
   */
  iv: Type.Optional(Type.Integer()),
});
export type TokenClaims = Static<typeof TokenClaimsSchema>;

/** What a service needs to know to accept or refuse a token (internal call and user.changed event). */
export const TokenStateSchema = Type.Object({
  id: Type.String(),
  role: RoleSchema,
  activation: ActivationSchema,
  tokenVersion: Type.Integer(),
  /**
   * The version the login-as tokens this user issued as an admin must carry (claim `iv`). Optional only because
   * `user.changed` events recorded before it existed lack it; a state without it accepts no login-as token.
   */
  impersonationVersion: Type.Optional(Type.Integer()),
});
export type TokenState = Static<typeof TokenStateSchema>;
