// Entry point of a render thread. Node 20 does not apply `--import` loaders to a worker's own entry module, so the
// thread registers tsx itself before loading the TypeScript worker (given as workerData).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.moduleUrl);
