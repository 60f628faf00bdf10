/**
 * Bounds of a SKU preset, shared with the server. They mirror SKU_LIMITS in @flatship/proto; importing that value
 * would pull the schema library into the browser bundle, so sku-limits.test.ts keeps the two in step instead.
 */
export const SKU_LIMITS = {
  textMax: 200,
  weightMax: 70,
  dimensionMax: 108,
  maxQtyMax: 10_000,
  skusPerUserMax: 5_000,
  listMax: 5_000,
  defaultMaxQty: 4,
} as const;
