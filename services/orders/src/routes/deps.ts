import type { BulkDeps } from '../domain/bulk/deps';
import type { CheckAddressDeps } from '../domain/check-address';
import type { CreateLabelDeps } from '../domain/create-label';
import type { LabelConverter } from '../domain/label-formats';
import type { FileStore, LabelsRepo } from '../domain/ports';
import type { PrintSettingsRepo } from '../domain/print-settings';
import type { RefundDeps } from '../domain/refunds';
import type { ScanFormsRepo } from '../domain/scan-forms/ports';
import type { ZplWork } from '../domain/zpl-work';

/** Everything the use cases may ask for; each route hands on what its use case needs. */
export interface DomainDeps extends CreateLabelDeps, BulkDeps, RefundDeps, CheckAddressDeps {
  labels: LabelsRepo;
  files: FileStore;
  scanForms: ScanFormsRepo;
  printSettings: PrintSettingsRepo;
  /** Converts label files between formats; the real converters when absent. */
  converter?: LabelConverter;
  /** The process's ZPL conversions, shared and bounded (`ZPL_CONVERSIONS`). */
  zplWork?: ZplWork;
  /** How long retry-failed waits for the retried labels before answering with where they stand. */
  retryWaitMs: number;
}
