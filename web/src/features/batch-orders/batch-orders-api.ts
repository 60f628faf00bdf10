import type { FileData } from '@flatship/proto';
import { getJson } from '../../app/http';

/** A bulk order as the batch list shows it (spec doc 2 §3 "Batch order"). */
export interface BatchOrder {
  _id: string;
  createdAt: string;
  status: string;
  processedCount: number;
  totalCount: number;
  failedCount: number;
  failedLabels?: unknown[];
  bulkOrderData?: { cost?: number | string | null } | null;
  pdfName?: string | null;
  resultCSVName?: string | null;
  autoConfirmCSVName?: string | null;
  fileStorageNames?: { pdf?: string | null; resultCSV?: string | null } | null;
  fileDisplayNames?: Record<string, string | null> | null;
  stuckAt?: string | null;
}

/** The list may arrive bare or wrapped; anything else reads as empty. */
function listOf(reply: unknown): BatchOrder[] {
  if (Array.isArray(reply)) return reply as BatchOrder[];
  if (reply && typeof reply === 'object') {
    for (const key of ['bulkOrders', 'batchOrders', 'orders', 'data']) {
      const value = (reply as Record<string, unknown>)[key];
      if (Array.isArray(value)) return value as BatchOrder[];
    }
  }
  return [];
}

export const batchOrdersApi = {
  /** GET /api/orders/bulk/{userId} */
  list: async (userId: string) => listOf(await getJson<unknown>(`orders/bulk/${encodeURIComponent(userId)}`)),
};

export type { FileData };
