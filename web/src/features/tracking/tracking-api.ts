import type { LabelTrackingReply } from '@flatship/proto';
import { getJson } from '../../app/http';

export type { LabelTrackingReply };

export const trackingApi = {
  /** GET /api/orders/labels/{labelId}/tracking: the label's parcel and its events, newest first. */
  labelTracking: (labelId: string) =>
    getJson<LabelTrackingReply>(`orders/labels/${encodeURIComponent(labelId)}/tracking`),
};
