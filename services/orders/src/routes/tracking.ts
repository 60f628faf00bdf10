import { requireAuth, type ServiceApp } from '@flatship/kit';
import { IdSchema, LabelTrackingReplySchema } from '@flatship/proto';
import { Type } from 'typebox';
import { getLabelTracking, type TrackingRepo } from '../domain/tracking';

const LabelIdParamsSchema = Type.Object({ labelId: IdSchema });

/** A label's tracking events, for its owner (or an admin); anyone else is told the label does not exist. */
export function registerTrackingRoutes(app: ServiceApp, deps: { tracking: TrackingRepo }): void {
  app.get(
    '/api/orders/labels/:labelId/tracking',
    {
      onRequest: [app.requireUser],
      schema: { params: LabelIdParamsSchema, response: { 200: LabelTrackingReplySchema } },
    },
    async (request) => getLabelTracking(deps, requireAuth(request), request.params.labelId),
  );
}
