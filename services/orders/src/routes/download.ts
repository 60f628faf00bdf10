import { AppError, requireAuth, type ServiceApp } from '@flatship/kit';
import { Type } from 'typebox';
import { getLabelFile } from '../domain/get-label-file';
import { MESSAGES } from '../domain/messages';
import type { DomainDeps } from './deps';

const PdfNameParamsSchema = Type.Object({ pdfName: Type.String() });
const TokenQuerySchema = Type.Object({ token: Type.Optional(Type.String()) });

export function registerDownloadRoutes(app: ServiceApp, deps: DomainDeps): void {
  // The link opens in a new browser tab, so the token comes as `?token=`.
  app.get(
    '/api/orders/download/v2/:pdfName',
    { onRequest: [app.requireUser], schema: { params: PdfNameParamsSchema, querystring: TokenQuerySchema } },
    async (request, reply) => {
      const file = await getLabelFile(deps, requireAuth(request), request.params.pdfName);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-length', String(file.size))
        .header('content-disposition', `inline; filename="${file.fileName}"`)
        .header('cache-control', 'private, max-age=0, must-revalidate')
        .header('x-content-type-options', 'nosniff')
        .send(file.stream);
    },
  );

  // Names with a slash in them never reach the route above; they get the same answer as any unknown file.
  app.get('/api/orders/download/v2/*', { onRequest: [app.requireUser] }, async () => {
    throw new AppError('FILE_NOT_FOUND', MESSAGES.fileNotFound);
  });
}
