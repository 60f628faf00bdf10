import { requireAuth, requireInternal, type ServiceApp } from '@flatship/kit';
import {
  AddressCheckSchema,
  VerifyAddressBodySchema,
  VerifyAddressesBodySchema,
  VerifyAddressesReplySchema,
} from '@flatship/proto';
import { type CheckAddressDeps, checkAddress, checkAddresses, createCheckLimiter } from '../domain/check-address';

/** Checks a user may ask for per minute: one at a time as a form is typed, and many for a file's rows. */
export const SINGLE_CHECKS_PER_MINUTE = 120;
export const BATCH_CHECKS_PER_MINUTE = 5_000;

/**
 * Address checks before paying (nothing is charged): one address as a form is filled in, a file's rows in chunks,
 * and auth's check of a saved address (internal).
 */
export function registerAddressCheckRoutes(
  app: ServiceApp,
  deps: CheckAddressDeps,
  internalSecret: string,
  limits = { single: SINGLE_CHECKS_PER_MINUTE, batch: BATCH_CHECKS_PER_MINUTE },
): void {
  const single = createCheckLimiter({ max: limits.single, windowMs: 60_000 });
  const batch = createCheckLimiter({ max: limits.batch, windowMs: 60_000 });

  app.post(
    '/api/orders/verify-address',
    {
      onRequest: [app.requireUser],
      schema: { body: VerifyAddressBodySchema, response: { 200: AddressCheckSchema } },
    },
    async (request) => {
      const userId = requireAuth(request).userId;
      // Counted once the address is known to be good: a refused request uses up none of the user's checks.
      return checkAddress(deps, request.body.address, request.body.service_uid, (n) => single.take(userId, n));
    },
  );

  app.post(
    '/api/orders/verify-addresses',
    {
      onRequest: [app.requireUser],
      schema: { body: VerifyAddressesBodySchema, response: { 200: VerifyAddressesReplySchema } },
    },
    async (request) => {
      const userId = requireAuth(request).userId;
      const { addresses, service_uid } = request.body;
      return { results: await checkAddresses(deps, addresses, service_uid, (n) => batch.take(userId, n)) };
    },
  );

  // Auth checks a saved address here when it is saved: it has no carrier of its own.
  app.post(
    '/internal/verify-address',
    {
      onRequest: [requireInternal(internalSecret)],
      schema: { body: VerifyAddressBodySchema, response: { 200: AddressCheckSchema } },
    },
    async (request) => checkAddress(deps, request.body.address, request.body.service_uid),
  );
}
