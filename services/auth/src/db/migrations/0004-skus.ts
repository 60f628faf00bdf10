import type { Migration } from '@flatship/kit';

export const createSkus: Migration = {
  name: '0004_skus',
  async up(db) {
    // Plain numeric keeps what the user typed (0.1 steps and finer) without float drift; the limits match the
    // domain rules so no writer can store a preset the rules would refuse.
    await db.raw(`
      create table skus (
        id uuid primary key default gen_random_uuid(),
        user_id uuid not null references users (id) on delete cascade,
        sku text not null constraint skus_sku_check check (sku <> '' and length(sku) <= 200),
        max_qty integer not null constraint skus_max_qty_check check (max_qty > 0),
        weight numeric not null constraint skus_weight_check check (weight > 0 and weight <= 70),
        length numeric not null constraint skus_length_check check (length > 0 and length <= 108),
        width numeric not null constraint skus_width_check check (width > 0 and width <= 108),
        height numeric not null constraint skus_height_check check (height > 0 and height <= 108),
        description text not null default '' constraint skus_description_check check (length(description) <= 200),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
    // Marketplaces and people write one SKU in different cases; the index, not a prior read, settles racing
    // writers. It also serves the list, which is sorted by SKU.
    await db.raw('create unique index skus_user_sku_key on skus (user_id, lower(sku))');
  },
};
