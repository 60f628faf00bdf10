import type { ServiceApp } from '@flatship/kit';
import { AuditQuerySchema, AuditReplySchema } from '@flatship/proto';
import type { AuditRepo } from '../db/audit-repo';

const DEFAULT_LIMIT = 25;

/** What admins changed while signed in as a user, newest first (GET /api/admin/audit). */
export function registerAuditRoutes(app: ServiceApp, deps: { audit: AuditRepo }): void {
  app.get(
    '/api/admin/audit',
    { onRequest: [app.requireAdmin], schema: { querystring: AuditQuerySchema, response: { 200: AuditReplySchema } } },
    (request) =>
      deps.audit.list({
        page: request.query.page ?? 1,
        limit: request.query.limit ?? DEFAULT_LIMIT,
        ...(request.query.userId ? { userId: request.query.userId } : {}),
        ...(request.query.adminId ? { adminId: request.query.adminId } : {}),
      }),
  );
}
