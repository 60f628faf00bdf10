/** The Postgres schema that holds admin's read models; no other service reads it. */
export const ADMIN_SCHEMA = 'admin';
