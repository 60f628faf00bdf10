import type { TestProject } from 'vitest/node';
import { type RunningPostgres, startThrowawayPostgres } from './embedded-pg';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
  }
}

let running: RunningPostgres | undefined;

/** Starts one PostgreSQL for the whole run, or uses TEST_DATABASE_ADMIN_URL when given. */
export async function setup(project: TestProject) {
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
