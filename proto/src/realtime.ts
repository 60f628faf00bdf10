// No schema library here: the browser bundle imports these names.
// The payload of `orderProgress` is OrderProgress (bulk-api.ts).

/** Socket.io event names of the bulk progress channel (gateway ↔ browser). */
export const REALTIME_EVENTS = {
  joinOrderRoom: 'joinOrderRoom',
  leaveOrderRoom: 'leaveOrderRoom',
  orderProgress: 'orderProgress',
} as const;

const ORDER_ROOM_PREFIX = 'order_';

/** `order_<orderId>`: the only room names a client may ask to join. Order ids are lower-case UUIDs. */
export const ORDER_ROOM_PATTERN = /^order_[0-9a-f-]{36}$/;
export const orderRoomName = (orderId: string) => `${ORDER_ROOM_PREFIX}${orderId}`;
/** The order id a room name (one that matches ORDER_ROOM_PATTERN) stands for. */
export const orderIdOfRoom = (roomName: string) => roomName.slice(ORDER_ROOM_PREFIX.length);

/** The acknowledgement of `joinOrderRoom(roomName, ack)` and `leaveOrderRoom(roomName, ack)`. */
export type OrderRoomAck = { ok: true } | { ok: false; code: string; message: string };
