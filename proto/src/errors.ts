import { type Static, Type } from 'typebox';

/** The one error wire format every service and the gateway answer with. */
export const ErrorBodySchema = Type.Object({
  code: Type.String(),
  message: Type.String(),
});
export type ErrorBody = Static<typeof ErrorBodySchema>;

/**
 * Every error code and the HTTP status it maps to. The domain raises codes;
 * only the HTTP layer (services/kit) reads the status.
 */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  BAD_JSON: 400,
  BAD_REQUEST: 400,
  AUTH_MISSING_TOKEN: 401,
  AUTH_INVALID_TOKEN: 401,
  AUTH_TOKEN_EXPIRED: 401,
  AUTH_TOKEN_REVOKED: 401,
  AUTH_INVALID_CREDENTIALS: 401,
  AUTH_WRONG_PASSWORD: 400,
  AUTH_ACCOUNT_BLOCKED: 403,
  AUTH_EMAIL_TAKEN: 409,
  AUTH_PASSWORD_MISMATCH: 400,
  AUTH_WEAK_PASSWORD: 400,
  AUTH_INVALID_EMAIL: 400,
  AUTH_FIELDS_MISSING: 400,
  REFERRAL_INVALID_CODE: 404,
  REFERRAL_OWN_CODE: 400,
  REFERRAL_ALREADY_APPLIED: 409,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
