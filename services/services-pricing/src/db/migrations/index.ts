import type { Migration } from '@flatship/kit';
import { createServices } from './0001-services';

export { PRICING_SCHEMA } from './schema';

/** Applied in this order, each once; never edit one that has shipped, add the next. */
export const migrations: Migration[] = [createServices];
