/**
 * Test options every project takes: a project referenced by its own config file does not inherit the root
 * config's test options (Vitest's defaults would be 5 s a test and 10 s a hook). Tests wait on conditions, not
 * on time, so these limits only decide how soon a test that will never pass is reported; a busy two-core
 * machine takes seconds for what an idle one does at once (starting a stack, migrating a database).
 */
export const sharedTestOptions = { testTimeout: 30_000, hookTimeout: 60_000 } as const;
