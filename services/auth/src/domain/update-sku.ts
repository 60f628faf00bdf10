import { AppError } from '@flatship/kit';
import type { Sku } from '@flatship/proto';
import { SKU_MESSAGES } from './sku-messages';
import type { SkusRepo } from './sku-ports';
import { validateSku } from './sku-rules';
import { toSku } from './sku-view';

/**
 * Replaces every field of one of the user's presets (the table sends the whole row). Someone else's preset
 * answers as missing, and is untouched; renaming to a SKU the user has on another preset is refused.
 */
export async function updateSku(deps: { skus: SkusRepo }, userId: string, skuId: string, input: unknown): Promise<Sku> {
  const fields = validateSku(input);
  const result = await deps.skus.update(userId, skuId, fields);
  if (!result) throw new AppError('SKU_NOT_FOUND', SKU_MESSAGES.notFound);
  if (!result.ok) throw new AppError('SKU_TAKEN', SKU_MESSAGES.skuTaken);
  const [sku] = result.skus;
  if (!sku) throw new Error('update returned no row');
  return toSku(sku);
}
