import type { ProfileChange, UsersViewRepo } from '../db/users-view-repo';
import { moneyChangeOf, profileFromExport } from '../db/users-view-repo';
import type { Balances, CallContext, UserDirectory } from './ports';

const PAGE = 1000;

export interface SeedDeps {
  users: UserDirectory;
  balances: Balances;
  view: Pick<UsersViewRepo, 'applyProfiles' | 'applyMoney' | 'seededAt' | 'markSeeded'>;
}

/**
 * Fills the user table from auth's export and payments' figures, a thousand users at a time, with the same
 * guarded writes the events use: whatever an event has already written newer stays. Safe to run again at
 * any time; an install that had users before the table existed shows all of them after one run.
 */
export async function seedUsersView(deps: SeedDeps, ctx: CallContext): Promise<{ users: number }> {
  let after: string | undefined;
  let seen = 0;
  for (;;) {
    const page = await deps.users.exportPage(after, PAGE, ctx);
    if (page.length === 0) break;
    const profiles: ProfileChange[] = page.map(profileFromExport);
    await deps.view.applyProfiles(profiles);
    const summaries = await deps.balances.summaries(
      page.map((u) => u._id),
      ctx,
    );
    await deps.view.applyMoney(summaries.map(moneyChangeOf));
    seen += page.length;
    after = page.at(-1)?._id;
    if (page.length < PAGE) break;
  }
  await deps.view.markSeeded();
  return { users: seen };
}

/**
 * The seed of a fresh install: runs once, the first time admin starts with the user table (events keep it
 * current afterwards). Returns whether it ran.
 */
export async function seedUsersViewOnce(deps: SeedDeps, ctx: CallContext): Promise<boolean> {
  if (await deps.view.seededAt()) return false;
  await seedUsersView(deps, ctx);
  return true;
}
