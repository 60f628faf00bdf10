/** The Postgres schema that holds everything orders stores; no other service reads it. */
export const ORDERS_SCHEMA = 'orders';
