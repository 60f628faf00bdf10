import { type BatchOrder, type BulkProgressEvent, centsToDollars, type FileData } from '@flatship/proto';
import type { BulkOrderRecord } from './ports';

export const fileDataOf = (o: BulkOrderRecord): FileData | null =>
  o.pdfName || o.resultCsvName || o.autoConfirmName
    ? { pdfName: o.pdfName, resultCSVName: o.resultCsvName, autoConfirmCSVName: o.autoConfirmName }
    : null;

export const progressOf = (o: BulkOrderRecord): BulkProgressEvent => ({
  orderId: o.id,
  userId: o.userId,
  processedCount: o.processedCount,
  failedCount: o.failedCount,
  refundedCount: o.refundedCount,
  totalCount: o.totalCount,
  status: o.status,
  fileData: fileDataOf(o),
});

export function toBatchOrder(o: BulkOrderRecord, failedLabels: { rowIndex: number; error: string }[]): BatchOrder {
  const files = { pdfName: o.pdfName, resultCSVName: o.resultCsvName, autoConfirmCSVName: o.autoConfirmName };
  return {
    _id: o.id,
    createdAt: o.createdAt.toISOString(),
    status: o.status,
    source: o.source,
    fileName: o.fileName,
    processedCount: o.processedCount,
    totalCount: o.totalCount,
    failedCount: o.failedCount,
    refundedCount: o.refundedCount,
    failedLabels,
    bulkOrderData: { cost: centsToDollars(o.costCents) },
    ...files,
    fileStorageNames: {
      pdf: o.pdfName ? `${o.id}/labels.pdf` : null,
      resultCSV: o.resultCsvName ? `${o.id}/results.csv` : null,
    },
    fileDisplayNames: files,
    stuckAt: o.stuckAt ? o.stuckAt.toISOString() : null,
  };
}
