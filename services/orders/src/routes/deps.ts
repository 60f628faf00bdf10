import type { CreateLabelDeps } from '../domain/create-label';
import type { FileStore, LabelsRepo } from '../domain/ports';

/** Everything the use cases may ask for; each route hands on what its use case needs. */
export interface DomainDeps extends CreateLabelDeps {
  labels: LabelsRepo;
  files: FileStore;
}
