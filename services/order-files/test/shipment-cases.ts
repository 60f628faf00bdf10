import type { BulkOrderItem, OrderCreateBody } from '@flatship/proto';
import { type BulkRow, emptyBulkRow, toBulkOrderItem } from '../src/rows';

/**
 * One table of shipments and what the rules say about each, run in the browser's package
 * (shipment-cases.test.ts: `bulkRowProblems`) and against the orders service (its
 * shipment-cases.test.ts: a single label through POST /api/orders/v2 and a bulk order through
 * the process route), so the bulk table, the single-label form and the server agree.
 */

export const CASE_SERVICE = 'USPS Priority Mail';
/** The carriers the server buys labels from in the tests. */
export const CASE_CARRIERS = ['usps'] as const;

export interface ShipmentCase {
  name: string;
  /** Changes to a valid row. */
  row: Partial<BulkRow>;
  /** Every problem, in the order the rules list them; empty for a valid row. */
  problems: { field: keyof BulkRow; message: string }[];
}

export const caseRow = (over: Partial<BulkRow> = {}): BulkRow => ({
  ...emptyBulkRow('row-1'),
  courier: 'usps',
  ServiceName: CASE_SERVICE,
  FromSenderName: 'Ada Sender',
  FromPhone: '555-010-0000',
  FromStreet1: '1 Main St',
  FromCity: 'Austin',
  FromStateProvince: 'TX',
  FromZipPostal: '73301',
  ToRecipientName: 'Bob Receiver',
  ToStreet1: '2 Side Ave',
  ToCity: 'Los Angeles',
  ToStateProvince: 'CA',
  ToZipPostal: '90001',
  PackageLength: 10,
  PackageWidth: 8,
  PackageHeight: 4,
  PackageWeight: 2,
  PackageDescription: 'Books',
  skuNumber: 'SKU-1',
  quantity: 1,
  ...over,
});

const LONG = 'x'.repeat(201);

/** USPS delivers domestically to DC, the territories and military post offices. */
const DELIVERABLE_STATES = ['DC', 'PR', 'VI', 'GU', 'AS', 'MP', 'AA', 'AE', 'AP'];

export const SHIPMENT_CASES: ShipmentCase[] = [
  { name: 'a complete row', row: {}, problems: [] },
  ...DELIVERABLE_STATES.map((state) => ({
    name: `a recipient in ${state}`,
    row: { ToStateProvince: state, ToCity: 'Somewhere', ToZipPostal: '20001' },
    problems: [],
  })),
  { name: 'a recipient state written out', row: { ToStateProvince: 'District of Columbia' }, problems: [] },
  { name: 'a ZIP+4', row: { ToZipPostal: '90001-1234' }, problems: [] },
  { name: 'a courier in capitals', row: { courier: 'USPS' }, problems: [] },
  {
    name: 'a sender outside the 50 states (the address book offers those only)',
    row: { FromStateProvince: 'DC' },
    problems: [{ field: 'FromStateProvince', message: 'Sender state must be a US state' }],
  },
  {
    name: 'an unknown recipient state',
    row: { ToStateProvince: 'ZZ' },
    problems: [{ field: 'ToStateProvince', message: 'Recipient state must be a US state' }],
  },
  {
    name: 'a blank recipient name and a short ZIP',
    row: { ToRecipientName: ' ', ToZipPostal: '1234' },
    problems: [
      { field: 'ToRecipientName', message: 'Recipient name is required' },
      { field: 'ToZipPostal', message: 'Recipient zip must be a 5-digit ZIP code or ZIP+4' },
    ],
  },
  {
    name: 'a phone with letters',
    row: { FromPhone: '555-CALL' },
    problems: [
      {
        field: 'FromPhone',
        message: 'Sender phone must contain only digits, spaces and hyphens, with an optional leading +',
      },
    ],
  },
  {
    name: 'a recipient abroad',
    row: { ToCountry: 'CA' },
    problems: [{ field: 'ToCountry', message: 'Recipient country must be US' }],
  },
  {
    name: 'a company name over 200 characters',
    row: { ToCompany: LONG },
    problems: [{ field: 'ToCompany', message: 'Recipient company must be at most 200 characters' }],
  },
  {
    name: 'a description over 200 characters',
    row: { PackageDescription: LONG },
    problems: [{ field: 'PackageDescription', message: 'Description must be at most 200 characters' }],
  },
  {
    name: 'a side over 108 inches',
    row: { PackageLength: 109 },
    problems: [{ field: 'PackageLength', message: 'Length must be at most 108 inches' }],
  },
  {
    name: 'a weight of 0 and a blank height',
    row: { PackageWeight: 0, PackageHeight: null },
    problems: [
      { field: 'PackageHeight', message: 'Height is required' },
      { field: 'PackageWeight', message: 'Weight must be a positive number' },
    ],
  },
  {
    name: 'a width with three decimals',
    row: { PackageWidth: 2.555 },
    problems: [{ field: 'PackageWidth', message: 'Width can have at most 2 decimal places' }],
  },
  {
    name: 'a quantity of 0',
    row: { quantity: 0 },
    problems: [{ field: 'quantity', message: 'Quantity must be a whole number of at least 1' }],
  },
  {
    name: 'a courier the server does not buy from',
    row: { courier: 'fedex' },
    problems: [{ field: 'courier', message: 'Only USPS labels are available' }],
  },
];

/** The case as the bulk screen sends it. */
export const caseBulkItem = (c: ShipmentCase): BulkOrderItem => toBulkOrderItem(caseRow(c.row), CASE_SERVICE);

/** The case as the single-label form sends it: reference1 is the Quantity, reference2 the SKU Number. */
export function caseOrderBody(c: ShipmentCase, userId: string): OrderCreateBody {
  const item = caseBulkItem(c);
  const { order_id: _, ...sender } = item.sender;
  const {
    order_item_id: __,
    quantity,
    sku_number,
    package_reference1: ___,
    package_reference2: ____,
    ...pkg
  } = item.package;
  return {
    user_id: userId,
    service_name: item.service_name,
    manifested: false,
    ...(item.courier !== undefined ? { courier: item.courier } : {}),
    sender,
    receiver: item.receiver,
    package: {
      ...pkg,
      package_reference1: quantity === null || quantity === undefined ? '' : String(quantity),
      package_reference2: sku_number ?? '',
    },
  };
}
