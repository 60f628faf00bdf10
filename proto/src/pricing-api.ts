import { type Static, Type } from 'typebox';
import { BULK_MAX_ROWS } from './bulk-api';
import { IdSchema } from './ids';

/** One weight range of a price list, in pounds and dollars (doc 3 §5). */
export const PriceRangeSchema = Type.Object({
  fromWeight: Type.Number(),
  toWeight: Type.Number(),
  price: Type.Number(),
});
export type PriceRange = Static<typeof PriceRangeSchema>;

/** A service a user can buy (GET /api/userServices/{userId}/available). */
export const AvailableServiceSchema = Type.Object({
  uid: Type.String(),
  name: Type.String(),
  category: Type.String(),
  maxWeight: Type.Number(),
});
export type AvailableService = Static<typeof AvailableServiceSchema>;

/** Raw carrier service (GET /api/rawServices). */
export const RawServiceSchema = Type.Object({
  _id: Type.String(),
  uid: Type.String(),
  name: Type.String(),
  category: Type.String(),
  carrier: Type.String(),
  maxWeight: Type.Number(),
  status: Type.Union([Type.Literal('active'), Type.Literal('inactive')]),
});
export type RawService = Static<typeof RawServiceSchema>;

/** Default and per-user services share this shape (doc 3 §3). */
export const ConfiguredServiceSchema = Type.Object({
  _id: Type.String(),
  uid: Type.String(),
  name: Type.String(),
  category: Type.String(),
  maxWeight: Type.Number(),
  status: Type.Union([Type.Literal('active'), Type.Literal('inactive')]),
  enabled: Type.Boolean(),
  prices: Type.Array(PriceRangeSchema),
});
export type ConfiguredService = Static<typeof ConfiguredServiceSchema>;

/** POST /api/orders/price/v2/bulk — the server computes every price. Extra fields are ignored. */
export const QuoteBodySchema = Type.Object({
  userId: IdSchema,
  shipments: Type.Array(
    Type.Object({
      service_name: Type.String(),
      package: Type.Optional(
        Type.Object({ package_weight: Type.Optional(Type.Union([Type.Number(), Type.String(), Type.Null()])) }),
      ),
    }),
    { maxItems: BULK_MAX_ROWS },
  ),
});
export type QuoteBody = Static<typeof QuoteBodySchema>;
export const QuoteReplySchema = Type.Object({ totalPrice: Type.Number() });
export type QuoteReply = Static<typeof QuoteReplySchema>;

/** POST /internal/quotes — used by orders before charging. Weights in pounds; prices in cents. */
export const InternalQuoteBodySchema = Type.Object({
  userId: IdSchema,
  shipments: Type.Array(Type.Object({ service_name: Type.String(), weight: Type.Number() }), {
    maxItems: BULK_MAX_ROWS,
  }),
});
export type InternalQuoteBody = Static<typeof InternalQuoteBodySchema>;
export const InternalQuoteReplySchema = Type.Object({
  items: Type.Array(
    Type.Object({
      serviceUid: Type.String(),
      serviceName: Type.String(),
      billedWeight: Type.Integer(),
      priceCents: Type.Integer(),
    }),
  ),
  totalCents: Type.Integer(),
});
export type InternalQuoteReply = Static<typeof InternalQuoteReplySchema>;

/** PATCH /api/defaultServices/{id}/toggle and /api/userServices/{userId}/{serviceId}/toggle. */
export const ToggleServiceBodySchema = Type.Object({ enabled: Type.Boolean() });
export type ToggleServiceBody = Static<typeof ToggleServiceBodySchema>;

/**
 * PUT .../prices. Items are checked by the pricing rules rather than by the
 * schema, so a bad list answers with the spec's message, not a schema error.
 */
export const UpdatePricesBodySchema = Type.Object({ prices: Type.Array(Type.Unknown(), { maxItems: 1000 }) });
export type UpdatePricesBody = Static<typeof UpdatePricesBodySchema>;

/** PUT /api/defaultServices/{id}/name. */
export const RenameServiceBodySchema = Type.Object({ name: Type.String({ maxLength: 200 }) });
export type RenameServiceBody = Static<typeof RenameServiceBodySchema>;

/** Answer of every change to one default or per-user service. */
export const ServiceChangeReplySchema = Type.Object({ message: Type.String(), service: ConfiguredServiceSchema });
export type ServiceChangeReply = Static<typeof ServiceChangeReplySchema>;

/** POST /api/userServices/{userId}/initialize. */
export const InitializeUserServicesReplySchema = Type.Object({
  message: Type.String(),
  services: Type.Array(ConfiguredServiceSchema),
});
export type InitializeUserServicesReply = Static<typeof InitializeUserServicesReplySchema>;

/** GET /internal/services/:userId/effective — what the user can buy now (enabled, offered by the carrier). */
export const EffectiveServicesReplySchema = Type.Object({ services: Type.Array(ConfiguredServiceSchema) });
export type EffectiveServicesReply = Static<typeof EffectiveServicesReplySchema>;
