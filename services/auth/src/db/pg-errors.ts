/** The constraint a unique violation hit ('' when PostgreSQL did not say), or null for any other error. */
export function uniqueViolation(e: unknown): string | null {
  const err = e as { code?: string; constraint?: string };
  return err.code === '23505' ? (err.constraint ?? '') : null;
}
