export { buildApp, type PaymentsAppDeps } from './app';
export { type PaymentsConfig, PaymentsConfigSchema } from './config';
export { createDepositsRepo } from './db/deposits-repo';
export { createLedgerRepo } from './db/ledger-repo';
export { migrations, PAYMENTS_SCHEMA } from './db/migrations';
