/**
 * Time limits every project's tests share. A project's own config does not inherit the root config's test
 * options, so each spreads these into its `test` block. Generous on purpose: a test waits on conditions, and
 * the limit only ends one that hangs, on a loaded two-core machine as much as on a quiet one.
 */
export const TEST_TIME_LIMITS = { testTimeout: 30_000, hookTimeout: 60_000 } as const;
