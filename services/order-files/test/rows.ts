import { type BulkRow, emptyBulkRow } from '../src/rows';

/** A bulk row every rule accepts (no service chosen), with `over` on top: the start of most row tests. */
export const validRow = (over: Partial<BulkRow> = {}): BulkRow => ({
  ...emptyBulkRow('r1'),
  FromSenderName: 'Ada Shipper',
  FromStreet1: '100 Commerce Way',
  FromCity: 'Reno',
  FromStateProvince: 'NV',
  FromZipPostal: '89501',
  ToRecipientName: 'Harold Finch',
  ToStreet1: '2187 Larkspur Ave',
  ToCity: 'San Mateo',
  ToStateProvince: 'CA',
  ToZipPostal: '94401',
  PackageLength: 10,
  PackageWidth: 8,
  PackageHeight: 4,
  PackageWeight: 1.2,
  ...over,
});
