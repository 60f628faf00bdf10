import { type Static, Type } from 'typebox';
import { SessionUserSchema } from './users';

// Bodies are deliberately lenient in shape (strings of any length) so the
// domain can answer with the spec's own messages; lengths are checked there.

export const LoginBodySchema = Type.Object({
  email: Type.String(),
  password: Type.String(),
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
  password: Type.String(),
  confirmPassword: Type.String(),
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
  currentPassword: Type.Optional(Type.String()),
  newPassword: Type.Optional(Type.String()),
});
export type AccountUpdateBody = Static<typeof AccountUpdateBodySchema>;

export const AccountUpdateReplySchema = Type.Object({
  message: Type.String(),
  /** A password change revokes older tokens, so a fresh one is returned. */
  token: Type.String(),
  user: SessionUserSchema,
});
export type AccountUpdateReply = Static<typeof AccountUpdateReplySchema>;
