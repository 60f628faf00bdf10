import { SKU_LIMITS } from '@flatship/proto';

/** The texts users see about SKU presets; where the spec gives a text (doc 2 §5, §8), it is that text. */
export const SKU_MESSAGES = {
  added: 'New SKU Data Added',
  updated: 'SKU updated successfully',
  deleted: 'SKU deleted successfully',
  notFound: 'SKU not found',
  skuRequired: 'SKU is required',
  skuTaken: 'SKU must be unique',
  emptyList: 'There is no SKU data to add',
  listTooLong: `You can add at most ${SKU_LIMITS.listMax} SKUs at once`,
  limitReached: `You can keep at most ${SKU_LIMITS.skusPerUserMax} SKUs`,
  notAnObject: 'SKU data must be an object with sku, maxQty, weight, length, width, height and description',
} as const;
