import type { Sku } from '@flatship/proto';
import { findUserOrFail } from './find-user';
import type { UsersRepo } from './ports';
import type { SkusRepo } from './sku-ports';
import { toSku } from './sku-view';

/** The user's presets sorted by SKU, as the SKU page and the bulk screen read them. */
export async function listSkus(deps: { users: UsersRepo; skus: SkusRepo }, userId: string): Promise<Sku[]> {
  await findUserOrFail(deps.users, userId);
  return (await deps.skus.listByUser(userId)).map(toSku);
}
