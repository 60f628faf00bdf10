import { type Static, Type } from 'typebox';
import { SkuSchema } from './bulk-api';
import { SKU_LIMITS } from './limits';

// A CSV upload sends every cell as text, the add dialog sends numbers: both are
// accepted and the server's rules name the field when one is not a positive number.
const Cell = Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Null()]));

/** One SKU as the add dialog, the CSV upload and an edited row send it. */
export const SkuInputSchema = Type.Object({
  sku: Cell,
  maxQty: Cell,
  weight: Cell,
  length: Cell,
  width: Cell,
  height: Cell,
  description: Cell,
});
export type SkuInput = Static<typeof SkuInputSchema>;

/**
 * POST /api/auth/add-sku/{userId}: `{ parsedData: [...] }` or the bare list. All rows are
 * added or none. With `upsert: true` a SKU the user already has (any case) is updated
 * instead of refused — the bulk screen saves presets this way. A longer list than one call may
 * carry is refused by its length, before its rows are looked at.
 */
const SkuListSchema = Type.Array(SkuInputSchema, { maxItems: SKU_LIMITS.listMax });
export const AddSkuBodySchema = Type.Union([
  Type.Object({ parsedData: SkuListSchema, upsert: Type.Optional(Type.Boolean()) }),
  SkuListSchema,
]);
export type AddSkuBody = Static<typeof AddSkuBodySchema>;

/** GET /api/auth/get-sku/{userId}: the user's SKUs sorted by SKU. */
export const SkuDataReplySchema = Type.Object({ SkuData: Type.Array(SkuSchema) });
export type SkuDataReply = Static<typeof SkuDataReplySchema>;

/** add-sku answer: the message and the user's whole list after the change, sorted by SKU. */
export const AddSkuReplySchema = Type.Object({ message: Type.String(), SkuData: Type.Array(SkuSchema) });
export type AddSkuReply = Static<typeof AddSkuReplySchema>;

/** POST /api/auth/update-sku/{userId}/{skuId}: `{ skuData: {...} }`, or the fields at the top level. */
export const UpdateSkuBodySchema = Type.Object({
  skuData: Type.Optional(SkuInputSchema),
  ...SkuInputSchema.properties,
});
export type UpdateSkuBody = Static<typeof UpdateSkuBodySchema>;

export const SkuResultSchema = Type.Object({ message: Type.String(), sku: Type.Optional(SkuSchema) });
export type SkuResult = Static<typeof SkuResultSchema>;
