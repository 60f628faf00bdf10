/** The Postgres schema that holds everything services-pricing stores; no other service reads it. */
export const PRICING_SCHEMA = 'pricing';
