import type { CreateScanFormReply, ScanForm, ScanFormsReply } from '@flatship/proto';
import { getJson, postJson } from '../../app/http';

export type { CreateScanFormReply, ScanForm, ScanFormsReply };

/** The browser's time zone: "today" is the customer's day, as their clock shows it. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export const scanFormsApi = {
  /** GET /api/orders/scan-forms/{userId}: recent forms, and the labels still waiting for one. */
  list: (userId: string, timeZone: string) =>
    getJson<ScanFormsReply>(`orders/scan-forms/${encodeURIComponent(userId)}?timeZone=${encodeURIComponent(timeZone)}`),
  /** POST /api/orders/scan-forms/bulk/{orderId}: the forms of a bulk order's labels. */
  createForOrder: (orderId: string, timeZone: string) =>
    postJson<CreateScanFormReply>(`orders/scan-forms/bulk/${encodeURIComponent(orderId)}`, { timeZone }),
  /** POST /api/orders/scan-forms/today/{userId}: the form of today's single labels. */
  createForToday: (userId: string, timeZone: string) =>
    postJson<CreateScanFormReply>(`orders/scan-forms/today/${encodeURIComponent(userId)}`, { timeZone }),
};
