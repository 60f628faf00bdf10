import type {
  Activation,
  ExportedUser,
  InternalReferralBonusSettings,
  InternalResetLinkReply,
  InternalUser,
  LoginAsTokenReply,
  MoneySummary,
  Role,
  SetReferralBonusSettingsBody,
} from '@flatship/proto';

/** Context of the request a use case serves, carried to the services it calls. */
export interface CallContext {
  requestId: string;
}

/** The users, as auth keeps them. Every call throws USER_NOT_FOUND for an unknown (or deleted) id. */
export interface UserDirectory {
  get(userId: string, ctx: CallContext): Promise<InternalUser>;
  /** Auth checks the code and answers its own errors (format, taken, unknown user). */
  setReferralCode(userId: string, referralCode: string, ctx: CallContext): Promise<InternalUser>;
  /** A real change revokes the user's tokens at once. */
  setRole(userId: string, role: Role, ctx: CallContext): Promise<InternalUser>;
  /** A real change revokes the user's tokens at once. */
  setActivation(userId: string, activation: Activation, ctx: CallContext): Promise<InternalUser>;
  /** Soft delete: the user cannot sign in any more, their email is free, their records stay. */
  delete(userId: string, ctx: CallContext): Promise<void>;
  /** A token for the user naming the admin; auth refuses a blocked user or an admin (LOGIN_AS_NOT_ALLOWED). */
  loginAsToken(userId: string, adminId: string, ctx: CallContext): Promise<LoginAsTokenReply>;
  /** Every user, deleted ones too, in id order after `after`. */
  exportPage(after: string | undefined, limit: number, ctx: CallContext): Promise<ExportedUser[]>;
  /** A fresh single-use password reset link for the user; throws USER_NOT_FOUND for an unknown id. */
  issueResetLink(userId: string, ctx: CallContext): Promise<InternalResetLinkReply>;
}

/** Balances, as payments keeps them. Cents. */
export interface Balances {
  set(input: { userId: string; balanceCents: number; adminId: string; key: string }, ctx: CallContext): Promise<number>;
  get(userId: string, ctx: CallContext): Promise<number>;
  /** Money of each id (at most 1000), in dollars, with the seq of the latest ledger entry. */
  summaries(userIds: string[], ctx: CallContext): Promise<MoneySummary[]>;
}

/** The referral bonus settings, as payments keeps them (cents). */
export interface ReferralBonusSettingsStore {
  get(ctx: CallContext): Promise<InternalReferralBonusSettings>;
  /** Recorded by payments with the admin's id. */
  set(body: SetReferralBonusSettingsBody, ctx: CallContext): Promise<InternalReferralBonusSettings>;
}
