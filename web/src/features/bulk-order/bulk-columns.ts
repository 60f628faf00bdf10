import { type BulkRow, bulkRowProblems } from '@flatship/order-files/rows';

export type BulkField = keyof BulkRow & string;
export type ColumnGroup = 'order' | 'sender' | 'recipient' | 'package';

export interface BulkColumn {
  key: BulkField;
  /** The short header under the group ("Name*"). */
  header: string;
  /** Full name for input labels and the "Copy from:" menu ("Sender Name"). */
  label: string;
  group: ColumnGroup;
  isRequired?: boolean;
  isNumber?: boolean;
  /** Pixels; fixed so the columns do not jump while rows scroll in and out. */
  width: number;
}

export const GROUP_TITLES: Record<ColumnGroup, string> = {
  order: 'Order Information',
  sender: 'Sender',
  recipient: 'Recipient',
  package: 'Package',
};

const addressColumns = (group: 'sender' | 'recipient'): BulkColumn[] => {
  const side = group === 'sender' ? 'Sender' : 'Recipient';
  const p = group === 'sender' ? 'From' : 'To';
  const name = (group === 'sender' ? 'FromSenderName' : 'ToRecipientName') as BulkField;
  const col = (key: string, header: string, label: string, width: number, isRequired = false): BulkColumn => ({
    key: key as BulkField,
    header: isRequired ? `${header}*` : header,
    label: `${side} ${label}`,
    group,
    isRequired,
    width,
  });
  return [
    col(name, 'Name', 'Name', 150, true),
    col(`${p}Phone`, 'Phone', 'Phone', 120),
    col(`${p}Company`, 'Company', 'Company', 130),
    col(`${p}Street1`, 'Street', 'Street', 170, true),
    col(`${p}Street2`, 'St2', 'Street 2', 100),
    col(`${p}City`, 'City', 'City', 120, true),
    col(`${p}StateProvince`, 'State', 'State', 70, true),
    col(`${p}ZipPostal`, 'Zip', 'Zip', 80, true),
  ];
};

const packageColumn = (key: BulkField, header: string, label: string): BulkColumn => ({
  key,
  header: `${header}*`,
  label,
  group: 'package',
  isRequired: true,
  isNumber: true,
  width: 64,
});

export const ORDER_COLUMNS: BulkColumn[] = [
  { key: 'orderId', header: 'Order ID', label: 'Order ID', group: 'order', width: 150 },
  { key: 'skuNumber', header: 'SKU', label: 'SKU', group: 'order', width: 110 },
  { key: 'quantity', header: 'Qty', label: 'Quantity', group: 'order', isNumber: true, width: 56 },
];

export const MAIN_COLUMNS: BulkColumn[] = [
  ...addressColumns('sender'),
  ...addressColumns('recipient'),
  packageColumn('PackageLength', 'L', 'Length'),
  packageColumn('PackageWidth', 'W', 'Width'),
  packageColumn('PackageHeight', 'H', 'Height'),
  packageColumn('PackageWeight', 'Wt', 'Weight'),
];

export const DIMENSION_FIELDS = ['PackageLength', 'PackageWidth', 'PackageHeight', 'PackageWeight'] as const;

/** The Order Information group is shown only when the file carried order ids or SKUs. */
export function hasOrderInformation(rows: Iterable<BulkRow>): boolean {
  for (const row of rows) if (isFilled(row.orderId) || isFilled(row.skuNumber)) return true;
  return false;
}

export function isFilled(value: unknown): boolean {
  return value !== null && value !== undefined && String(value).trim() !== '';
}

export function cellText(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

const NO_PROBLEMS: ReadonlyMap<BulkField, string> = new Map();

/**
 * The cells to highlight, each with its (first) message. The rules are the shared ones the
 * submit check and the server apply; each problem names the cell it belongs to.
 */
export function rowProblems(row: BulkRow): ReadonlyMap<BulkField, string> {
  const found = bulkRowProblems(row);
  if (found.length === 0) return NO_PROBLEMS;
  const problems = new Map<BulkField, string>();
  for (const { field, message } of found) if (!problems.has(field)) problems.set(field, message);
  return problems;
}
