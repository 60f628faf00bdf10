import { type Static, Type } from 'typebox';
import { MultilineString } from './multiline-string';

// ---- Password reset (auth service; the admin issuing route is on the admin service) ----

/** Lifetime of a reset link, in minutes; a link also works only once. */
export const PASSWORD_RESET_TTL_MINUTES = 30;

/** POST /api/auth/forgot-password (public). */
export const ForgotPasswordBodySchema = Type.Object({ email: Type.String() });
export type ForgotPasswordBody = Static<typeof ForgotPasswordBodySchema>;

/** The same answer whether or not the email belongs to an account, so nobody learns which emails exist. */
export const ForgotPasswordReplySchema = Type.Object({ message: Type.String() });
export type ForgotPasswordReply = Static<typeof ForgotPasswordReplySchema>;

/** POST /api/auth/reset-password (public): the token from the link and the new password, checked as at registration. */
export const ResetPasswordBodySchema = Type.Object({
  token: Type.String(),
  password: MultilineString(),
});
export type ResetPasswordBody = Static<typeof ResetPasswordBodySchema>;

export const ResetPasswordReplySchema = Type.Object({ message: Type.String() });
export type ResetPasswordReply = Static<typeof ResetPasswordReplySchema>;

/** POST /internal/users/:id/reset-link on auth: a fresh single-use link for that user. */
export const InternalResetLinkReplySchema = Type.Object({
  link: Type.String(),
  /** ISO 8601. */
  expiresAt: Type.String(),
});
export type InternalResetLinkReply = Static<typeof InternalResetLinkReplySchema>;

/** POST /api/auth/users/{id}/reset-link (admin service, admins only): the link for the admin to hand over. */
export const ResetLinkReplySchema = Type.Object({
  message: Type.String(),
  link: Type.String(),
});
export type ResetLinkReply = Static<typeof ResetLinkReplySchema>;

// ---- Live chat (Chatwoot) ----

/** Where the web app loads the chat widget from; null when live chat is not configured. */
export const ChatwootWidgetConfigSchema = Type.Object({
  baseUrl: Type.String(),
  websiteToken: Type.String(),
});
export type ChatwootWidgetConfig = Static<typeof ChatwootWidgetConfigSchema>;

/** GET /api/auth/client-config (public): settings the web app needs before anyone signs in. */
export const ClientConfigReplySchema = Type.Object({
  chatwoot: Type.Union([ChatwootWidgetConfigSchema, Type.Null()]),
});
export type ClientConfigReply = Static<typeof ClientConfigReplySchema>;

/**
 * GET /api/chatwoot/identity (signed in): who the chat visitor is. `hash` is the hex HMAC-SHA256 of
 * `identifier` keyed with the inbox's HMAC token, so Chatwoot can trust the identity.
 */
export const ChatwootIdentitySchema = Type.Object({
  identifier: Type.String(),
  email: Type.String(),
  name: Type.String(),
  avatar: Type.String(),
  hash: Type.String(),
});
export type ChatwootIdentity = Static<typeof ChatwootIdentitySchema>;
