/** The Postgres schema that holds everything admin stores; no other service reads it. */
export const ADMIN_SCHEMA = 'admin';
