import { AppError } from '@flatship/kit';
import { SKU_LIMITS, type Sku } from '@flatship/proto';
import { findUserOrFail } from './find-user';
import type { Transactor, UsersRepo } from './ports';
import { SKU_MESSAGES } from './sku-messages';
import type { SkusRepo } from './sku-ports';
import { rowPrefix, skuKey, validateSkuList } from './sku-rules';
import { toSku } from './sku-view';

export interface AddSkusDeps {
  users: UsersRepo;
  skus: SkusRepo;
  transactor: Transactor;
}

const taken = (i: number, count: number) => new AppError('SKU_TAKEN', `${rowPrefix(i, count)}${SKU_MESSAGES.skuTaken}`);

/**
 * Adds a list of presets (a CSV upload or the add dialog): every row is added or none is. A SKU the user
 * already has, in any case, is refused naming its row — or, with `upsert`, that preset takes the new values
 * (the bulk screen saves presets from edited rows this way). Answers the user's whole list, sorted by SKU.
 */
export async function addSkus(
  deps: AddSkusDeps,
  userId: string,
  rows: unknown[],
  opts: { upsert: boolean },
): Promise<Sku[]> {
  if (rows.length === 0) throw new AppError('SKU_INVALID', SKU_MESSAGES.emptyList);
  if (rows.length > SKU_LIMITS.listMax) throw new AppError('SKU_INVALID', SKU_MESSAGES.listTooLong);
  const fields = validateSkuList(rows);

  // Two rows of one list naming the same SKU would leave it unclear which one the user meant to keep.
  const firstRow = new Map<string, number>();
  fields.forEach((f, i) => {
    if (firstRow.has(skuKey(f.sku))) throw taken(i, fields.length);
    firstRow.set(skuKey(f.sku), i);
  });

  await findUserOrFail(deps.users, userId);
  // Per-user lock: two uploads at once cannot both fit under the limit and together exceed it.
  return deps.transactor.run(
    async (tx) => {
      const existing = new Set(
        (await deps.skus.findBySkus(userId, [...firstRow.keys()], tx)).map((s) => skuKey(s.sku)),
      );
      if (!opts.upsert) {
        const clash = fields.findIndex((f) => existing.has(skuKey(f.sku)));
        if (clash >= 0) throw taken(clash, fields.length);
      }
      const added = fields.filter((f) => !existing.has(skuKey(f.sku))).length;
      if ((await deps.skus.countByUser(userId, tx)) + added > SKU_LIMITS.skusPerUserMax) {
        throw new AppError('SKU_LIMIT_REACHED', SKU_MESSAGES.limitReached);
      }
      const result = opts.upsert
        ? await deps.skus.upsertMany(userId, fields, tx)
        : await deps.skus.insertMany(userId, fields, tx);
      // Only a writer outside the lock (an update renaming a preset) can get here first; the index still refuses.
      if (!result.ok) throw new AppError('SKU_TAKEN', SKU_MESSAGES.skuTaken);
      return (await deps.skus.listByUser(userId, tx)).map(toSku);
    },
    { lockKey: `auth:skus:${userId}` },
  );
}
