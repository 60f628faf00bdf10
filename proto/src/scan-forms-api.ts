import { type Static, Type } from 'typebox';

// SCAN forms (PS Form 5630): one barcode the carrier's clerk scans to accept every label listed on it. A customer
// makes one for a bulk order's labels (Batch Orders) or for the day's single labels (Orders). A carrier's form covers
// labels of one carrier, sent from one address, for one mailing day: labels that differ make one form each.

/** The time zone "today" is read in when the browser names none. */
export const DEFAULT_SCAN_FORM_TIME_ZONE = 'UTC';

/** Whether `value` is an IANA time zone name this runtime knows (`America/Chicago`). */
export function isTimeZone(value: string): boolean {
  if (value.length === 0 || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const TimeZoneSchema = Type.String({ minLength: 1, maxLength: 64 });

/** What a form covers: one bulk order's labels, or one day's single labels. */
export const ScanFormScopeSchema = Type.Union([Type.Literal('bulk'), Type.Literal('day')]);
export type ScanFormScope = Static<typeof ScanFormScopeSchema>;

export const ScanFormSchema = Type.Object({
  _id: Type.String(),
  scope: ScanFormScopeSchema,
  /** The bulk order, for `bulk`. */
  bulkOrderId: Type.Union([Type.String(), Type.Null()]),
  /** The carrier's number of the form (what its barcode carries). */
  formNumber: Type.String(),
  /** The carrier plugin that made it (`sandbox-usps`, `usps`, `easypost`). */
  carrierId: Type.String(),
  /** The From address, on one line. */
  fromText: Type.String(),
  /** The mailing day, YYYY-MM-DD. */
  shipDate: Type.String(),
  labelCount: Type.Integer(),
  createdAt: Type.String(),
});
export type ScanForm = Static<typeof ScanFormSchema>;

/** GET /api/orders/scan-forms/{userId}?timeZone=: the user's recent forms and what is still to be put on one. */
export const ScanFormsQuerySchema = Type.Object({ timeZone: Type.Optional(TimeZoneSchema) });
export const ScanFormsReplySchema = Type.Object({
  /** Today in the time zone asked, YYYY-MM-DD. */
  today: Type.String(),
  /** Single labels bought today, usable, and on no form yet: what "Create SCAN form for today" would list. */
  unmanifestedToday: Type.Integer(),
  /** Per bulk order with usable labels on no form yet: how many. */
  unmanifestedByOrder: Type.Record(Type.String(), Type.Integer()),
  /** Newest first (the last 100). */
  forms: Type.Array(ScanFormSchema),
});
export type ScanFormsReply = Static<typeof ScanFormsReplySchema>;

/** POST /api/orders/scan-forms/bulk/{orderId} and POST /api/orders/scan-forms/today/{userId}. */
export const CreateScanFormBodySchema = Type.Object(
  { timeZone: Type.Optional(TimeZoneSchema) },
  { additionalProperties: false },
);
export type CreateScanFormBody = Static<typeof CreateScanFormBodySchema>;

export const CreateScanFormReplySchema = Type.Object({
  message: Type.String(),
  /** Every form of the order (or of the day's single labels), those made before included. */
  forms: Type.Array(ScanFormSchema),
  /** Forms made by this request (0 when asked again: the same forms come back). */
  created: Type.Integer(),
  /** What the carrier said of each group of labels it refused; nothing was recorded for them. */
  refused: Type.Array(Type.String()),
});
export type CreateScanFormReply = Static<typeof CreateScanFormReplySchema>;

/** Where a SCAN form's PDF is downloaded (with a download token, as label PDFs are). */
export const scanFormDownloadPath = (formId: string): string =>
  `/api/orders/download/scan-form/${encodeURIComponent(formId)}`;

/** The texts of SCAN forms a customer sees. */
export const SCAN_FORM_MESSAGES = {
  orderNotFound: 'Order not found',
  formNotFound: 'SCAN form not found',
  badTimeZone: (value: string) => `timeZone must be a time zone name such as America/Chicago; got '${value}'`,
  nothingInOrder:
    'There are no labels in this order to put on a SCAN form: only bought labels that are not refunded or being refunded can go on one.',
  nothingToday:
    'There are no single labels from today to put on a SCAN form: only labels bought today that are not refunded, being refunded, or on a form already can go on one.',
  created: (forms: number, labels: number) =>
    forms === 1
      ? `SCAN form created for ${labels} label${labels === 1 ? '' : 's'}.`
      : `${forms} SCAN forms created for ${labels} labels: one per carrier, From address and day.`,
  already: (forms: number) =>
    forms === 1
      ? 'These labels are on a SCAN form already. Here it is.'
      : `These labels are on ${forms} SCAN forms already. Here they are.`,
  someRefused: (reasons: readonly string[]) => ` Some labels could not go on a form: ${reasons.join(' ')}`,
  unsupported: 'The carrier of these labels does not make SCAN forms.',
} as const;
