import type { ScanFormScope } from '@flatship/proto';
import type { Tx } from '../ports';
import type { ShipmentAddress } from '../validate-shipment';

/** A bought label that may go on a SCAN form, as the form needs it. */
export interface ManifestableLabel {
  id: string;
  userId: string;
  bulkOrderId: string | null;
  trackingNumber: string;
  sender: ShipmentAddress;
  /** The carrier plugin that bought it (null for labels bought before it was kept: the first enabled carrier). */
  carrierId: string | null;
  carrierRef: string | null;
}

export interface ScanFormRecord {
  id: string;
  userId: string;
  scope: ScanFormScope;
  bulkOrderId: string | null;
  carrierId: string;
  carrierFormId: string;
  idempotencyKey: string;
  sender: ShipmentAddress;
  /** YYYY-MM-DD. */
  shipDate: string;
  labelCount: number;
  /** Where its PDF is in the file store. */
  pdfKey: string;
  createdAt: Date;
}

export type NewScanForm = Omit<ScanFormRecord, 'createdAt'>;

/** The instants a calendar day of one time zone spans: from `from`, up to but not including `until`. */
export interface DayBounds {
  from: Date;
  until: Date;
}

/**
 * Which labels a form is for: one bulk order's, or one user's single labels of one day (`day`, YYYY-MM-DD) in one
 * time zone, bought within `bounds`. The zone is read once, where the day is worked out; the database gets instants.
 */
export type ManifestScope =
  | { scope: 'bulk'; userId: string; bulkOrderId: string }
  | { scope: 'day'; userId: string; day: string; bounds: DayBounds };

export interface ScanFormsRepo {
  /**
   * Labels of the scope that may go on a form now: bought, no refund asked, on no form; in row order (a bulk order)
   * or purchase order (a day).
   */
  listManifestable(scope: ManifestScope, tx?: Tx): Promise<ManifestableLabel[]>;
  /** How many single labels bought within `day` and of each bulk order may go on a form now. */
  countManifestable(userId: string, day: DayBounds): Promise<{ today: number; byOrder: Record<string, number> }>;
  insert(form: NewScanForm, tx?: Tx): Promise<ScanFormRecord>;
  /** Puts the labels on the form; how many were put (a label on another form already is not). */
  attach(formId: string, labelIds: readonly string[], tx?: Tx): Promise<number>;
  findById(id: string): Promise<ScanFormRecord | null>;
  /** The forms of a scope, oldest first. */
  listOfScope(scope: ManifestScope, tx?: Tx): Promise<ScanFormRecord[]>;
  /** A user's forms, newest first. */
  listForUser(userId: string, limit: number): Promise<ScanFormRecord[]>;
}
