/** The Postgres schema that holds everything auth stores; no other service reads it. */
export const AUTH_SCHEMA = 'auth';
