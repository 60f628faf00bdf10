import type { BulkDeps } from '../domain/bulk/deps';
import type { CreateLabelDeps } from '../domain/create-label';
import type { FileStore, LabelsRepo } from '../domain/ports';
import type { RefundDeps } from '../domain/refunds';
import type { ScanFormsRepo } from '../domain/scan-forms/ports';

/** Everything the use cases may ask for; each route hands on what its use case needs. */
export interface DomainDeps extends CreateLabelDeps, BulkDeps, RefundDeps {
  labels: LabelsRepo;
  files: FileStore;
  scanForms: ScanFormsRepo;
  /** How long retry-failed waits for the retried labels before answering with where they stand. */
  retryWaitMs: number;
}
