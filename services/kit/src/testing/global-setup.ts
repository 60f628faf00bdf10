import type { TestProject } from 'vitest/node';
import { buildRunnables, describeBuild } from '../../../../infra/build/build.mjs';
import { type RunningPostgres, startThrowawayPostgres } from './embedded-pg';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
  }
}

let running: RunningPostgres | undefined;

/**
 * Builds every runnable whose bundle is missing or older than its sources, so tests that start services, workers or
 * the launcher as processes run the same dist/ files production does. Then starts one PostgreSQL for the whole run,
 * or uses TEST_DATABASE_ADMIN_URL when given.
 */
export async function setup(project: TestProject) {
  await buildRunnables({ onlyStale: true, onStart: (todo) => process.stdout.write(`${describeBuild(todo)}\n`) });
  const given = process.env.TEST_DATABASE_ADMIN_URL;
  if (given) {
    project.provide('pgAdminUrl', given);
    return;
  }
  running = await startThrowawayPostgres();
  project.provide('pgAdminUrl', running.adminUrl);
}

export async function teardown() {
  await running?.stop();
}
