import { xlsxFile } from '../../xlsx-file';
import type { ShippedPackage } from '../types';

/** The header of TikTok Shop's tracking upload template (Manage Orders → Upload), on its second row. */
export const TIKTOK_TRACKING_HEADER = ['Order ID', 'Tracking ID', 'Shipping Provider Name', 'Auto Combine Group ID'];
export const TIKTOK_TRACKING_SHEET = 'Shipping info';
export const TIKTOK_SPLIT_SHEET = 'Split orders';

const NOTE =
  'Tracking IDs of orders shipped with Flatship, one package per order. Orders shipped in several packages are on the "Split orders" sheet: TikTok Shop cannot take them in a batch upload, so add their packages in Seller Center.';
const SPLIT_NOTE =
  'These orders were shipped in several packages. TikTok Shop does not take split orders in a batch upload: add each package below to its order in Seller Center (Manage Orders).';

/**
 * TikTok Shop's tracking upload: sheet "Shipping info", a note on row 1, the header on row 2, then one row per
 * order. An order bought as several labels (several SKU lines, or a line split by the SKU's max quantity) is a
 * split order, which the batch upload refuses; rather than mark it shipped under one package's tracking ID, it is
 * left off that sheet and listed, package by package, on a second sheet the seller works from in Seller Center.
 */
export function tiktokTrackingFile(shipped: readonly ShippedPackage[]): Uint8Array {
  const byOrder = new Map<string, ShippedPackage[]>();
  for (const p of shipped) {
    const packages = byOrder.get(p.orderId);
    if (packages) packages.push(p);
    else byOrder.set(p.orderId, [p]);
  }
  const provider = (p: ShippedPackage) => p.carrier?.carrierName ?? p.courier.toUpperCase();
  const whole = [...byOrder.values()].filter((packages) => packages.length === 1).map(([p]) => p!);
  const split = [...byOrder.values()].filter((packages) => packages.length > 1).flat();
  const sheets = [
    {
      name: TIKTOK_TRACKING_SHEET,
      rows: [[NOTE], TIKTOK_TRACKING_HEADER, ...whole.map((p) => [p.orderId, p.trackingNumber, provider(p), ''])],
    },
  ];
  if (split.length > 0) {
    sheets.push({
      name: TIKTOK_SPLIT_SHEET,
      rows: [
        [SPLIT_NOTE],
        ['Order ID', 'SKU ID', 'Seller SKU', 'Quantity', 'Tracking ID', 'Shipping Provider Name'],
        ...split.map((p) => [p.orderId, p.orderItemId, p.sku, String(p.quantity), p.trackingNumber, provider(p)]),
      ],
    });
  }
  return xlsxFile(sheets);
}
