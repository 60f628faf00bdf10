import { requireInternal, type ServiceApp } from '@flatship/kit';
import { UsersViewSeedReplySchema } from '@flatship/proto';
import { type SeedDeps, seedUsersView } from '../domain/seed-users-view';

/** Calls from operators and other services, guarded by the shared secret; never routed by the gateway. */
export function registerInternalRoutes(app: ServiceApp, deps: SeedDeps, internalSecret: string): void {
  app.post(
    '/internal/users-view/seed',
    {
      onRequest: [requireInternal(internalSecret)],
      schema: { response: { 200: UsersViewSeedReplySchema } },
    },
    (request) => seedUsersView(deps, { requestId: request.id }),
  );
}
