import { AppError } from '@flatship/kit';
import type { Role } from '@flatship/proto';
import { SKU_MESSAGES } from './sku-messages';
import type { SkusRepo } from './sku-ports';

/**
 * The delete call names only the preset, so ownership is checked here: an admin may delete any preset,
 * anyone else only their own — another user's preset answers as missing, so its existence is not revealed.
 */
export async function deleteSku(
  deps: { skus: SkusRepo },
  caller: { userId: string; role: Role },
  skuId: string,
): Promise<void> {
  const owner = caller.role === 'admin' ? null : caller.userId;
  if (!(await deps.skus.delete(skuId, owner))) throw new AppError('SKU_NOT_FOUND', SKU_MESSAGES.notFound);
}
