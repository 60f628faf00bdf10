import type { ServiceApp } from '@flatship/kit';
import { IdSchema, PrintSettingsBodySchema, PrintSettingsReplySchema, PrintSettingsSchema } from '@flatship/proto';
import { Type } from 'typebox';
import { getPrintSettings, savePrintSettings } from '../domain/print-settings';
import type { DomainDeps } from './deps';

const UserIdParamsSchema = Type.Object({ userId: IdSchema });

export function registerPrintSettingsRoutes(app: ServiceApp, deps: DomainDeps): void {
  app.get(
    '/api/orders/print-settings/:userId',
    { onRequest: [app.requireUser], schema: { params: UserIdParamsSchema, response: { 200: PrintSettingsSchema } } },
    async (request) => getPrintSettings(deps, request.auth, request.params.userId),
  );

  app.put(
    '/api/orders/print-settings/:userId',
    {
      onRequest: [app.requireUser],
      schema: {
        params: UserIdParamsSchema,
        body: PrintSettingsBodySchema,
        response: { 200: PrintSettingsReplySchema },
      },
    },
    async (request) => savePrintSettings(deps, request.auth, request.params.userId, request.body),
  );
}
