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
  /** A download link whose token is not one for this file (a session token, another file's, forged). */
  DOWNLOAD_LINK_INVALID: 401,
  DOWNLOAD_LINK_EXPIRED: 401,
  AUTH_INVALID_CREDENTIALS: 401,
  AUTH_WRONG_PASSWORD: 400,
  AUTH_ACCOUNT_BLOCKED: 403,
  AUTH_EMAIL_TAKEN: 409,
  AUTH_PASSWORD_MISMATCH: 400,
  AUTH_WEAK_PASSWORD: 400,
  AUTH_INVALID_EMAIL: 400,
  AUTH_FIELDS_MISSING: 400,
  // A password reset link that is unknown, already used or expired.
  AUTH_RESET_LINK_INVALID: 400,
  LIVE_CHAT_NOT_CONFIGURED: 404,
  REFERRAL_INVALID_CODE: 404,
  REFERRAL_OWN_CODE: 400,
  REFERRAL_ALREADY_APPLIED: 409,
  REFERRAL_CODE_TAKEN: 409,
  /** The code belongs to a blocked user: it recruits nobody while the block lasts. */
  REFERRAL_CODE_INACTIVE: 409,
  FORBIDDEN: 403,
  /** An admin asked to block, demote or delete themself. */
  ADMIN_SELF_CHANGE: 400,
  /** Login-as refused: the user is blocked or is an admin. */
  LOGIN_AS_NOT_ALLOWED: 400,
  /** A carrier did not answer when asked for its account balance. */
  ADMIN_CARRIER_UNREACHABLE: 502,
  NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  PAYMENTS_INSUFFICIENT_BALANCE: 402,
  PAYMENTS_IDEMPOTENCY_CONFLICT: 409,
  PAYMENTS_REFUND_EXCEEDS_CHARGE: 409,
  PAYMENTS_CHARGE_NOT_FOUND: 404,
  /** The payment provider (BTCPay) did not answer or answered something unusable. */
  PAYMENTS_PROVIDER_UNAVAILABLE: 502,
  /** A webhook whose signature does not match the configured secret. */
  PAYMENTS_WEBHOOK_SIGNATURE: 401,
  PRICING_SERVICE_UNKNOWN: 400,
  PRICING_SERVICE_DISABLED: 400,
  PRICING_WEIGHT_OVER_MAX: 400,
  PRICING_INVALID_PRICES: 400,
  PRICING_NAME_EMPTY: 400,
  PRICING_SERVICE_NOT_FOUND: 404,
  ORDERS_INVALID: 400,
  /** A carrier webhook (EasyPost tracker events) that is not signed with the configured secret. */
  ORDERS_WEBHOOK_SIGNATURE: 401,
  ORDERS_CARRIER_FAILED: 422,
  /** A label to an address the carrier says is undeliverable, bought without `address_acknowledged`. */
  ORDERS_ADDRESS_UNDELIVERABLE: 409,
  ORDERS_IN_PROGRESS: 409,
  /** An Idempotency-Key sent again with a different request body. */
  ORDERS_IDEMPOTENCY_KEY_REUSED: 422,
  /** A refund asked for a label that was refunded before. */
  ORDERS_LABEL_ALREADY_REFUNDED: 409,
  /** A refund asked for a label that was never bought (pending or failed). */
  ORDERS_LABEL_NOT_REFUNDABLE: 409,
  /** A refund asked for a label USPS has scanned (it was used). */
  ORDERS_LABEL_USED: 409,
  /** A refund asked for after the refund window (`REFUND_WINDOW_DAYS`). */
  ORDERS_REFUND_WINDOW_PASSED: 409,
  /** A refund asked again for a label whose refund the carrier refused. */
  ORDERS_REFUND_REJECTED: 409,
  /** A label refunded and voided: its PDF is not handed out any more, to its owner or to an admin. */
  ORDERS_LABEL_VOID: 410,
  /** Force Recovery of a bulk order whose file generation is not stuck. */
  ORDERS_NOT_STUCK: 409,
  /** Force Recovery could not write the order's files; the order is left recovery_failed, to try again. */
  ORDERS_RECOVERY_FAILED: 500,
  /** A SCAN form asked for with no label that can go on one. */
  ORDERS_SCAN_FORM_NO_LABELS: 409,
  /** The carrier refused to make a SCAN form (its message says why); nothing was recorded. */
  ORDERS_SCAN_FORM_REFUSED: 422,
  /** More single-label purchases than a process works on and lets wait: nothing was written; ask again shortly. */
  ORDERS_BUSY: 503,
  ADDRESS_INVALID: 400,
  ADDRESS_ID_TAKEN: 409,
  ADDRESS_NOT_FOUND: 404,
  ADDRESS_LIMIT_REACHED: 409,
  SKU_INVALID: 400,
  SKU_TAKEN: 409,
  SKU_NOT_FOUND: 404,
  SKU_LIMIT_REACHED: 409,
  FILE_NOT_FOUND: 404,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
