import type { InternalResetLinkReply, InternalUser } from '@flatship/proto';

/** Context of the request a use case serves, carried to the services it calls. */
export interface CallContext {
  requestId: string;
}

/** The users, as auth keeps them. */
export interface UserDirectory {
  /** Throws USER_NOT_FOUND for an unknown id. */
  get(userId: string, ctx: CallContext): Promise<InternalUser>;
  /** Auth checks the code and answers its own errors (format, taken, unknown user). */
  setReferralCode(userId: string, referralCode: string, ctx: CallContext): Promise<InternalUser>;
  /** A fresh single-use password reset link for the user; throws USER_NOT_FOUND for an unknown id. */
  issueResetLink(userId: string, ctx: CallContext): Promise<InternalResetLinkReply>;
}

/** Balances, as payments keeps them. Cents. */
export interface Balances {
  set(input: { userId: string; balanceCents: number; adminId: string; key: string }, ctx: CallContext): Promise<number>;
  get(userId: string, ctx: CallContext): Promise<number>;
}
