const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids come from URLs, bodies and tokens; anything that is not a uuid names nothing (and must not reach a uuid column). */
export const isUuid = (id: string) => UUID.test(id);

/** The constraint a unique violation hit ('' when PostgreSQL did not say), or null for any other error. */
export function uniqueViolation(e: unknown): string | null {
  const err = e as { code?: string; constraint?: string };
  return err.code === '23505' ? (err.constraint ?? '') : null;
}
