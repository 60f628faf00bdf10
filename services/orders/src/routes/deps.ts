import type { BulkDeps } from '../domain/bulk/deps';
import type { CheckAddressDeps } from '../domain/check-address';
import type { CreateLabelDeps } from '../domain/create-label';
import type { FileStore, LabelsRepo } from '../domain/ports';
import type { RefundDeps } from '../domain/refunds';

/** Everything the use cases may ask for; each route hands on what its use case needs. */
export interface DomainDeps extends CreateLabelDeps, BulkDeps, RefundDeps, CheckAddressDeps {
  labels: LabelsRepo;
  files: FileStore;
  /** How long retry-failed waits for the retried labels before answering with where they stand. */
  retryWaitMs: number;
}
