import type { ServiceApp } from '@flatship/kit';
import { templateCsv } from '@flatship/order-files';

/** The 'Bulk Template CSV' button; public, since it holds nothing but column names. */
export function registerTemplateRoute(app: ServiceApp): void {
  const body = Buffer.from(templateCsv());
  app.get('/api/orders/file/template', async (_request, reply) =>
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="Bulk_Template.csv"')
      .header('access-control-expose-headers', 'Content-Disposition')
      .header('cache-control', 'public, max-age=3600')
      .send(body),
  );
}
