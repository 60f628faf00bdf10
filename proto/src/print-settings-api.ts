import { type Static, Type } from 'typebox';

// The print setting (Account page): the format every label download comes in, single or merged.

/**
 * `pdf-4x6`: one 4x6 inch label per page (label printers, the default); `pdf-letter-2up`: two 4x6 labels on
 * each US Letter page (office printers); `zpl-203`: ZPL II at 203 dpi (thermal printers: Zebra, Rollo).
 */
export const PRINT_FORMATS = ['pdf-4x6', 'pdf-letter-2up', 'zpl-203'] as const;
export type PrintFormat = (typeof PRINT_FORMATS)[number];
export const DEFAULT_PRINT_FORMAT: PrintFormat = 'pdf-4x6';

export const isPrintFormat = (value: unknown): value is PrintFormat =>
  typeof value === 'string' && (PRINT_FORMATS as readonly string[]).includes(value);

/** What the Account page calls each format. */
export const PRINT_FORMAT_NAMES: Record<PrintFormat, { title: string; hint: string }> = {
  'pdf-4x6': { title: '4x6 PDF', hint: 'One label per page, for 4x6 label printers and most desktop printers.' },
  'pdf-letter-2up': {
    title: 'Letter PDF, 2 labels per page',
    hint: 'Two 4x6 labels on each 8.5x11 sheet, for office printers and half-sheet label paper.',
  },
  'zpl-203': {
    title: '4x6 ZPL (203 dpi)',
    hint: 'For thermal label printers such as Zebra and Rollo. Send the .zpl file to the printer as raw text.',
  },
};

/** The file a label download comes as in each format. */
export const PRINT_FILES: Record<PrintFormat, { extension: 'pdf' | 'zpl'; contentType: string }> = {
  'pdf-4x6': { extension: 'pdf', contentType: 'application/pdf' },
  'pdf-letter-2up': { extension: 'pdf', contentType: 'application/pdf' },
  'zpl-203': { extension: 'zpl', contentType: 'application/zpl; charset=utf-8' },
};

export const PrintFormatSchema = Type.Union([
  Type.Literal('pdf-4x6'),
  Type.Literal('pdf-letter-2up'),
  Type.Literal('zpl-203'),
]);

/** GET and PUT /api/orders/print-settings/{userId}. */
export const PrintSettingsSchema = Type.Object({ labelFormat: PrintFormatSchema });
export type PrintSettings = Static<typeof PrintSettingsSchema>;

/** The body of PUT; the format is checked by the service, so a wrong one is answered naming `labelFormat`. */
export const PrintSettingsBodySchema = Type.Object({ labelFormat: Type.Unknown() }, { additionalProperties: false });
export type PrintSettingsBody = Static<typeof PrintSettingsBodySchema>;

export const PrintSettingsReplySchema = Type.Object({
  labelFormat: PrintFormatSchema,
  message: Type.String(),
});
export type PrintSettingsReply = Static<typeof PrintSettingsReplySchema>;

export const printSettingsPath = (userId: string): string => `/api/orders/print-settings/${encodeURIComponent(userId)}`;
