import type { LabelAddress, LabelReferences } from '../port';

/** Everything printed on a label; the renderer knows nothing about carriers or requests. */
export interface LabelData {
  service: { letter: string; banner: string; trackingBanner: string };
  trackingNumber: string;
  from: LabelAddress;
  to: LabelAddress;
  weightLb: number;
  shipDate: Date;
  references?: LabelReferences;
}
