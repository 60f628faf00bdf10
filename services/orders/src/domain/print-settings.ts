import { AppError, type AuthContext, assertSelfOrAdmin } from '@flatship/kit';
import {
  DEFAULT_PRINT_FORMAT,
  isPrintFormat,
  PRINT_FORMATS,
  type PrintFormat,
  type PrintSettings,
  type PrintSettingsReply,
} from '@flatship/proto';

/** Each user's print setting (`print_settings`); a user who never chose has none (null). */
export interface PrintSettingsRepo {
  find(userId: string): Promise<PrintFormat | null>;
  /** Sets it, replacing any earlier choice. */
  save(userId: string, labelFormat: PrintFormat, by: string): Promise<void>;
}

export const PRINT_MESSAGES = {
  saved: 'Print setting saved',
  badFormat: `labelFormat must be one of ${PRINT_FORMATS.slice(0, -1).join(', ')} or ${PRINT_FORMATS.at(-1)}`,
} as const;

/** The format a user's label downloads come in: their choice, else 4x6 PDF. */
export async function printFormatOf(deps: { printSettings: PrintSettingsRepo }, userId: string): Promise<PrintFormat> {
  return (await deps.printSettings.find(userId)) ?? DEFAULT_PRINT_FORMAT;
}

/** GET /api/orders/print-settings/{userId}: the user's own, or anyone's for an admin. */
export async function getPrintSettings(
  deps: { printSettings: PrintSettingsRepo },
  auth: AuthContext | null,
  userId: string,
): Promise<PrintSettings> {
  assertSelfOrAdmin(auth, userId);
  return { labelFormat: await printFormatOf(deps, userId) };
}

/** PUT /api/orders/print-settings/{userId}: one of PRINT_FORMATS, or a 400 naming `labelFormat`. */
export async function savePrintSettings(
  deps: { printSettings: PrintSettingsRepo },
  auth: AuthContext | null,
  userId: string,
  body: { labelFormat?: unknown },
): Promise<PrintSettingsReply> {
  const caller = assertSelfOrAdmin(auth, userId);
  if (!isPrintFormat(body.labelFormat)) throw new AppError('VALIDATION_FAILED', PRINT_MESSAGES.badFormat);
  await deps.printSettings.save(userId, body.labelFormat, caller.userId);
  return { labelFormat: body.labelFormat, message: PRINT_MESSAGES.saved };
}
