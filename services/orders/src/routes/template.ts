import type { ServiceApp } from '@flatship/kit';

/**
 * The 'Bulk Template CSV' button; public, since it holds nothing but column names. The file readers it is written
 * with are loaded by the first download, not at every start.
 */
export function registerTemplateRoute(app: ServiceApp): void {
  let body: Promise<Buffer> | undefined;
  const template = () => {
    body ??= import('@flatship/order-files').then(({ templateCsv }) => Buffer.from(templateCsv()));
    return body;
  };
  app.get('/api/orders/file/template', async (_request, reply) =>
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="Bulk_Template.csv"')
      .header('access-control-expose-headers', 'Content-Disposition')
      .header('cache-control', 'public, max-age=3600')
      .send(await template()),
  );
}
