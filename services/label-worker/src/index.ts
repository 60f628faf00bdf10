export { buildWorkerApp, type LabelWorkerAppDeps } from './app';
export { type LabelWorkerConfig, LabelWorkerConfigSchema } from './config';
export { createWorkerDeps, type WorkerPorts } from './deps';
export { createProgressThrottle, type ProgressThrottle } from './progress-throttle';
export { startSweeper } from './sweeper';
export { LABEL_WORKER_GROUP, startLabelWorker } from './worker';
