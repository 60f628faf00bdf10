import { UNAVAILABLE_MESSAGE } from '@flatship/kit';

/** Texts the gateway itself answers with; everything else comes from the services. */
export const GATEWAY_MESSAGES = {
  unavailable: UNAVAILABLE_MESSAGE,
  rateLimited: 'Too many attempts. Please wait a minute and try again.',
  notFound: 'This address does not exist.',
  // The same text the services answer with, so a client sees one message whichever side refused.
  payloadTooLarge: 'The request body is too large',
  badLoginBody: 'Please send the email and password as a JSON object.',
  badResetBody: 'Please send the email as a JSON object.',
  badPath: 'This address is not valid.',
  orderNotFound: 'Order not found',
  orderUpdatesUnavailable: 'Order updates are unavailable right now',
  badOrderRoom: 'This order room name is not valid.',
  tooManyOrderRooms: 'Too many orders are being followed on this connection. Close one and try again.',
  spaMissing:
    'The Flatship web app has not been built yet. Build it with `npm run build -w web` (or point STATIC_DIR at a built copy) and reload this page.',
} as const;
