import { type Static, Type } from 'typebox';
import { IdSchema } from './ids';
import { LabelRefundSchema } from './refunds-api';
import { LabelTrackingSchema } from './tracking-api';

const Str = Type.Optional(Type.Union([Type.String(), Type.Null()]));
const Num = Type.Optional(Type.Union([Type.Number(), Type.String(), Type.Null()]));

/** The order-create payload of spec doc 1 §3. Lenient shape; the domain names what is wrong. */
export const OrderCreateBodySchema = Type.Object({
  user_id: IdSchema,
  service_name: Type.String(),
  manifested: Type.Optional(Type.Boolean()),
  courier: Type.Optional(Type.String()),
  /** The buyer saw that the carrier finds the To address undeliverable and ships there anyway. */
  address_acknowledged: Type.Optional(Type.Boolean()),
  sender: Type.Object({
    sender_name: Str,
    sender_phone: Str,
    sender_company: Str,
    sender_address1: Str,
    sender_address2: Str,
    sender_city: Str,
    sender_state_province: Str,
    sender_zip_postal: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Null()])),
    sender_country: Str,
  }),
  receiver: Type.Object({
    receiver_name: Str,
    receiver_phone: Str,
    receiver_company: Str,
    receiver_address1: Str,
    receiver_address2: Str,
    receiver_city: Str,
    receiver_state_province: Str,
    receiver_zip_postal: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Null()])),
    receiver_country: Str,
  }),
  package: Type.Object({
    package_length: Num,
    package_width: Num,
    package_height: Num,
    package_weight: Num,
    package_weight_unit: Str,
    package_description: Str,
    package_reference1: Str,
    package_reference2: Str,
  }),
});
export type OrderCreateBody = Static<typeof OrderCreateBodySchema>;

export const OrderCreateReplySchema = Type.Object({
  message: Type.String(),
  data: Type.Object({
    orderId: Type.String(),
    pdfName: Type.String(),
    tracking_number: Type.String(),
    price: Type.Number(),
  }),
});
export type OrderCreateReply = Static<typeof OrderCreateReplySchema>;

/** An order as the dashboard and orders list show it (doc 1 §3, doc 2 §3). */
export const OrderListItemSchema = Type.Object({
  _id: Type.String(),
  courier: Type.String(),
  service_name: Type.String(),
  /** void: bought, then refunded by an admin because it was never used. */
  status: Type.Union([
    Type.Literal('pending'),
    Type.Literal('completed'),
    Type.Literal('cancelled'),
    Type.Literal('void'),
  ]),
  sender: Type.Object({ sender_name: Type.String() }),
  receiver: Type.Object({ receiver_name: Type.String() }),
  tracking_number: Type.String(),
  pdfName: Type.Union([Type.String(), Type.Null()]),
  price: Type.Number(),
  createdAt: Type.String(),
  ...LabelRefundSchema.properties,
  ...LabelTrackingSchema.properties,
});
export type OrderListItem = Static<typeof OrderListItemSchema>;

export const RecentOrdersReplySchema = Type.Object({ recentOrders: Type.Array(OrderListItemSchema) });
export type RecentOrdersReply = Static<typeof RecentOrdersReplySchema>;
export const OrdersReplySchema = Type.Object({ orders: Type.Array(OrderListItemSchema) });
export type OrdersReply = Static<typeof OrdersReplySchema>;
export const TotalOrdersReplySchema = Type.Object({ totalOrders: Type.Integer() });
export type TotalOrdersReply = Static<typeof TotalOrdersReplySchema>;
