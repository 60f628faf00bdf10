/** The Postgres schema that holds everything payments stores; no other service reads it. */
export const PAYMENTS_SCHEMA = 'payments';
