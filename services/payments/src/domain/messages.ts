import { formatDollars } from './money-text';

/** The texts callers see. Where the spec gives a text, it is that text. */
export const MESSAGES = {
  insufficientBalance: (costCents: number, balanceCents: number) =>
    `Insufficient balance. This order costs ${formatDollars(costCents)} but your balance is ${formatDollars(balanceCents)}.`,
  idempotencyConflict: 'This idempotency key was already used for a different movement of money',
  chargeNotFound: 'No charge found for this refund',
  refundExceedsCharge: (chargedCents: number, refundedCents: number) =>
    `Refunds cannot exceed the charge of ${formatDollars(chargedCents)} (${formatDollars(refundedCents)} already refunded)`,
  invalidUserId: 'userId must be a user id',
  invalidAdminId: 'adminId must be a user id',
  amountTooLarge: 'The amount is too large',
  depositsOff: 'Deposits are not available right now. Please try again later.',
  providerUnavailable: 'The payment provider is not answering. Please try again in a moment.',
  guestTopUp: 'Please sign in to add funds.',
  webhookSignature: 'Invalid webhook signature',
  webhookNotJson: 'The webhook body is not valid JSON',
  webhookBody: (problem: string) => `Invalid webhook body: ${problem}`,
} as const;
