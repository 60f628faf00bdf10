import { AppError, requireAuth, type ServiceApp } from '@flatship/kit';
import { DownloadTokenBodySchema, DownloadTokenReplySchema, type PrintFormat } from '@flatship/proto';
import { Type } from 'typebox';
import { getLabelFile } from '../domain/get-label-file';
import { issueDownloadLink } from '../domain/issue-download-link';
import { MESSAGES } from '../domain/messages';
import type { DomainDeps } from './deps';
import { DownloadFormatQuerySchema, downloadFormatOf } from './download-format';

const PdfNameParamsSchema = Type.Object({ pdfName: Type.String() });

export function registerDownloadRoutes(app: ServiceApp, deps: DomainDeps): void {
  // Asked for right before a download opens, with the session token in the header as on every call.
  app.post(
    '/api/orders/download-token',
    {
      onRequest: [app.requireUser],
      schema: { body: DownloadTokenBodySchema, response: { 200: DownloadTokenReplySchema } },
    },
    async (request, reply) => {
      const link = await issueDownloadLink(
        { labels: deps.labels, bulk: deps.bulk, scanForms: deps.scanForms, sign: app.issueDownloadToken },
        requireAuth(request),
        request.body.path,
      );
      return reply.header('cache-control', 'no-store').send(link);
    },
  );

  // The link opens in a new browser tab, so its download token comes as `?token=` (the session token
  // never does: in the header it works as on every call).
  app.get(
    '/api/orders/download/v2/:pdfName',
    {
      onRequest: [app.requireDownloader],
      schema: { params: PdfNameParamsSchema, querystring: DownloadFormatQuerySchema },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const format: PrintFormat = await downloadFormatOf(deps, auth, request.query);
      const file = await getLabelFile(deps, auth, request.params.pdfName, format);
      return reply
        .header('content-type', file.contentType)
        .header('content-length', String(file.size))
        .header('content-disposition', `inline; filename="${file.fileName}"`)
        .header('cache-control', 'private, max-age=0, must-revalidate')
        .header('x-content-type-options', 'nosniff')
        .send(file.stream);
    },
  );

  // Names with a slash in them never reach the route above; they get the same answer as any unknown file.
  app.get('/api/orders/download/v2/*', { onRequest: [app.requireDownloader] }, async () => {
    throw new AppError('FILE_NOT_FOUND', MESSAGES.fileNotFound);
  });
}
