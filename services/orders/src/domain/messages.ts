/** The texts users see. Where the spec gives a text, it is that text. None contains a colon: the web keeps only what follows one. */
export const MESSAGES = {
  labelCreated: 'Label created successfully',
  webhookSignature: 'The webhook is not signed with the configured secret',
  inProgress: 'This order is already being processed. Please try again in a moment.',
  busy: 'Many labels are being bought right now. Nothing was charged; please try again in a moment.',
  keyReused: 'This Idempotency-Key was already used for a different order',
  fileNotFound: 'File not found',
  labelVoid: 'This label was refunded and is void. It can no longer be downloaded or used for shipping.',
  badIdempotencyKey: 'Idempotency-Key must be 1 to 200 visible characters',
  carrierUnreachable: 'The carrier could not be reached. Please try again.',
  abandoned: 'The order could not be completed. Any charge has been refunded.',
} as const;
