import { type Static, Type } from 'typebox';

export const ROLES = ['admin', 'friend', 'user'] as const;
export const RoleSchema = Type.Union(ROLES.map((r) => Type.Literal(r)));
export type Role = Static<typeof RoleSchema>;

export const ACTIVATIONS = ['allow', 'block'] as const;
export const ActivationSchema = Type.Union(ACTIVATIONS.map((a) => Type.Literal(a)));
export type Activation = Static<typeof ActivationSchema>;

/** Limits shared by the browser and the server. */
export const LIMITS = {
  nameMax: 200,
  emailMax: 254,
  passwordMin: 8,
  passwordMax: 200,
  referralCodeMax: 32,
} as const;

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
});
export type TokenClaims = Static<typeof TokenClaimsSchema>;

/** What a service needs to know to accept or refuse a token (internal call and user.changed event). */
export const TokenStateSchema = Type.Object({
  id: Type.String(),
  role: RoleSchema,
  activation: ActivationSchema,
  tokenVersion: Type.Integer(),
});
export type TokenState = Static<typeof TokenStateSchema>;
