import { type Static, Type } from 'typebox';
import { MultilineString } from './multiline-string';
import { ReferralBonusStateSchema } from './referral-bonus-api';
import { ActivationSchema, RoleSchema, SessionUserSchema } from './users';

// Bodies are deliberately lenient in shape (strings of any length) so the
// domain can answer with the spec's own messages; lengths are checked there.
// Passwords are MultilineString: a tab in one is the user's own choice, and
// they are hashed, never shown; every other field is a single line (see text.ts).

export const LoginBodySchema = Type.Object({
  email: Type.String(),
  password: MultilineString(),
});
export type LoginBody = Static<typeof LoginBodySchema>;

export const LoginReplySchema = Type.Object({
  token: Type.String(),
  user: SessionUserSchema,
});
export type LoginReply = Static<typeof LoginReplySchema>;

export const VerifyReplySchema = Type.Object({ user: SessionUserSchema });
export type VerifyReply = Static<typeof VerifyReplySchema>;

export const RegisterBodySchema = Type.Object({
  name: Type.String(),
  email: Type.String(),
  password: MultilineString(),
  confirmPassword: MultilineString(),
  referralCode: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type RegisterBody = Static<typeof RegisterBodySchema>;

export const RegisterReplySchema = Type.Object({
  ok: Type.Boolean(),
  token: Type.String(),
  user: SessionUserSchema,
  message: Type.String(),
});
export type RegisterReply = Static<typeof RegisterReplySchema>;

export const ReferralApplyBodySchema = Type.Object({ referralCode: Type.String() });
export type ReferralApplyBody = Static<typeof ReferralApplyBodySchema>;

export const ReferralApplyReplySchema = Type.Object({
  success: Type.Boolean(),
  token: Type.String(),
  user: SessionUserSchema,
  message: Type.String(),
});
export type ReferralApplyReply = Static<typeof ReferralApplyReplySchema>;

export const ReferralCodeReplySchema = Type.Object({ referralCode: Type.String() });
export type ReferralCodeReply = Static<typeof ReferralCodeReplySchema>;

export const InvitedUserSchema = Type.Object({
  name: Type.String(),
  registeredDate: Type.String(),
  totalDeposit: Type.Number(),
  /** The referral bonus of this referral, both sides (dollars); absent where payments was not asked. */
  bonus: Type.Optional(ReferralBonusStateSchema),
});
export type InvitedUser = Static<typeof InvitedUserSchema>;
export const InvitedUsersReplySchema = Type.Object({ invitedUsers: Type.Array(InvitedUserSchema) });
export type InvitedUsersReply = Static<typeof InvitedUsersReplySchema>;

/**
 * PATCH /api/auth/account — the signed-in user's own account (name, password).
 * A new password needs the current one.
 */
export const AccountUpdateBodySchema = Type.Object({
  name: Type.String(),
  currentPassword: Type.Optional(MultilineString()),
  newPassword: Type.Optional(MultilineString()),
});
export type AccountUpdateBody = Static<typeof AccountUpdateBodySchema>;

export const AccountUpdateReplySchema = Type.Object({
  message: Type.String(),
  /** A password change revokes older tokens, so a fresh one is returned. */
  token: Type.String(),
  user: SessionUserSchema,
});
export type AccountUpdateReply = Static<typeof AccountUpdateReplySchema>;

/**
 * POST /api/auth/login-as/end — the admin goes back to their own account: every login-as token that admin holds
 * stops working at once. Called with the login-as token or with the admin's own; no body.
 */
export const EndLoginAsReplySchema = Type.Object({ message: Type.String() });
export type EndLoginAsReply = Static<typeof EndLoginAsReplySchema>;

// ---- Internal API of the auth service (/internal/*, shared secret; never through the gateway) ----

/** GET /internal/users/:id — a user as other services see them; money lives in payments. */
export const InternalUserSchema = Type.Omit(SessionUserSchema, ['balance', 'totalDeposit', 'totalSpent']);
export type InternalUser = Static<typeof InternalUserSchema>;

/** POST /internal/users/:id/activation — blocking revokes every token the user holds. */
export const SetActivationBodySchema = Type.Object({ activation: ActivationSchema });
export type SetActivationBody = Static<typeof SetActivationBodySchema>;

/** POST /internal/users/:id/role — a role change revokes every token the user holds. */
export const SetRoleBodySchema = Type.Object({ user_role: RoleSchema });
export type SetRoleBody = Static<typeof SetRoleBodySchema>;

/**
 * POST /internal/users/:id/referral-code — an admin gives a user a code of their choosing. Trimmed, 4..32 letters or
 * digits, unique regardless of case, stored upper-case; the format is checked by auth so it can answer with its text.
 */
export const SetReferralCodeBodySchema = Type.Object({ referralCode: Type.String() });
export type SetReferralCodeBody = Static<typeof SetReferralCodeBodySchema>;

/**
 * POST /internal/accounts/summaries on payments — what auth asks to fill the
 * money fields of a user (balance, totalDeposit, totalSpent, in dollars).
 * Users payments does not know yet are simply absent from the reply.
 */
export const MoneySummariesBodySchema = Type.Object({ userIds: Type.Array(Type.String(), { maxItems: 1000 }) });
export type MoneySummariesBody = Static<typeof MoneySummariesBodySchema>;

export const MoneySummarySchema = Type.Object({
  userId: Type.String(),
  balance: Type.Number(),
  totalDeposit: Type.Number(),
  totalSpent: Type.Number(),
  /** The seq of the user's latest ledger entry (as in `account.changed`), 0 when they have none. */
  seq: Type.Optional(Type.Integer()),
});
export type MoneySummary = Static<typeof MoneySummarySchema>;

export const MoneySummariesReplySchema = Type.Object({ summaries: Type.Array(MoneySummarySchema) });
export type MoneySummariesReply = Static<typeof MoneySummariesReplySchema>;

/** POST /internal/users/:id/login-as-token — a token for the user naming the admin who acts as them (claim `imp`). */
export const LoginAsTokenBodySchema = Type.Object({ adminId: Type.String({ format: 'uuid' }) });
export type LoginAsTokenBody = Static<typeof LoginAsTokenBodySchema>;
export const LoginAsTokenReplySchema = Type.Object({ token: Type.String(), user: InternalUserSchema });
export type LoginAsTokenReply = Static<typeof LoginAsTokenReplySchema>;

/**
 * GET /internal/users/export?after&limit — every user, deleted ones too, in id order, for read models of
 * other services to start from. Page on by passing the last id as `after`.
 */
export const UsersExportQuerySchema = Type.Object({
  after: Type.Optional(Type.String({ format: 'uuid' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});
export type UsersExportQuery = Static<typeof UsersExportQuerySchema>;
export const ExportedUserSchema = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  avatar: Type.String(),
  user_role: RoleSchema,
  activation: ActivationSchema,
  referralCode: Type.String(),
  referredBy: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  deletedAt: Type.Union([Type.String(), Type.Null()]),
});
export type ExportedUser = Static<typeof ExportedUserSchema>;
export const UsersExportReplySchema = Type.Object({ users: Type.Array(ExportedUserSchema) });
export type UsersExportReply = Static<typeof UsersExportReplySchema>;
