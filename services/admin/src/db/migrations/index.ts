import type { Migration } from '@flatship/kit';
import { createRankingsLabelFacts } from './0101-rankings-label-facts';
import { createRankingsAggregates } from './0102-rankings-aggregates';

export { ADMIN_SCHEMA } from './schema';

/** Applied in this order, each once; never edit one that has shipped, add the next. */
export const migrations: Migration[] = [createRankingsLabelFacts, createRankingsAggregates];
