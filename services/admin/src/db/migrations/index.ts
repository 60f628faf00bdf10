import type { Migration } from '@flatship/kit';
import { createUsersView } from './0001-users-view';
import { createAudit } from './0002-audit';
import { addAuditEventIds } from './0003-audit-event-ids';
import { createRankingsLabelFacts } from './0101-rankings-label-facts';
import { createRankingsAggregates } from './0102-rankings-aggregates';
import { addRankingsCost } from './0103-rankings-cost';

export { ADMIN_SCHEMA } from './schema';

/** Applied in this order, each once; never edit one that has shipped, add the next. */
export const migrations: Migration[] = [
  createUsersView,
  createAudit,
  createRankingsLabelFacts,
  createRankingsAggregates,
  addAuditEventIds,
  addRankingsCost,
];
