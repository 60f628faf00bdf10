import type { Tx } from './ports';

/** A SKU preset's fields, already checked and trimmed by the SKU rules. */
export interface SkuFields {
  sku: string;
  maxQty: number;
  weight: number;
  length: number;
  width: number;
  height: number;
  description: string;
}

export interface SkuRecord extends SkuFields {
  id: string;
  userId: string;
  createdAt: Date;
  updatedAt: Date;
}

/** Writing fails only on a SKU (any case) the user already has on another preset. */
export type WriteSkusResult = { ok: true; skus: SkuRecord[] } | { ok: false; conflict: 'sku' };

/** Scoped to one user, except delete with a null user, which an admin's delete needs. */
export interface SkusRepo {
  /** Sorted by SKU, case-insensitively. */
  listByUser(userId: string, tx?: Tx): Promise<SkuRecord[]>;
  countByUser(userId: string, tx?: Tx): Promise<number>;
  /** The user's presets whose SKU equals one of `skus` regardless of case. */
  findBySkus(userId: string, skus: string[], tx?: Tx): Promise<SkuRecord[]>;
  /** All or none: one statement. */
  insertMany(userId: string, fields: SkuFields[], tx?: Tx): Promise<WriteSkusResult>;
  /** Inserts, or replaces every field of the preset with the same SKU in any case. */
  upsertMany(userId: string, fields: SkuFields[], tx?: Tx): Promise<WriteSkusResult>;
  /** null when the user has no preset with that id. */
  update(userId: string, id: string, fields: SkuFields, tx?: Tx): Promise<WriteSkusResult | null>;
  /** false when no preset has that id (for that user, when a user is given). */
  delete(id: string, userId: string | null, tx?: Tx): Promise<boolean>;
}
