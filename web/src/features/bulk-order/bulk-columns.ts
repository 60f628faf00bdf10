import { type BulkRow, validateBulkRow } from '@flatship/order-files/rows';

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

const MESSAGE_FIELDS: [prefix: string, field: BulkField][] = [
  ...(['Sender', 'Recipient'] as const).flatMap((side): [string, BulkField][] => {
    const p = side === 'Sender' ? 'From' : 'To';
    return [
      [`${side} name`, side === 'Sender' ? 'FromSenderName' : 'ToRecipientName'],
      [`${side} phone`, `${p}Phone` as BulkField],
      [`${side} street`, `${p}Street1` as BulkField],
      [`${side} city`, `${p}City` as BulkField],
      [`${side} state`, `${p}StateProvince` as BulkField],
      [`${side} zip`, `${p}ZipPostal` as BulkField],
      [`${side} country`, `${p}Country` as BulkField],
    ];
  }),
  ['Length', 'PackageLength'],
  ['Width', 'PackageWidth'],
  ['Height', 'PackageHeight'],
  ['Weight', 'PackageWeight'],
  ['Quantity', 'quantity'],
];

const NO_PROBLEMS: ReadonlyMap<BulkField, string> = new Map();

/**
 * The cells to highlight, each with its message. The rules are the shared ones the
 * submit check and the server apply; their messages name the field, which places them.
 */
export function rowProblems(row: BulkRow): ReadonlyMap<BulkField, string> {
  const messages = validateBulkRow(row);
  if (messages.length === 0) return NO_PROBLEMS;
  const problems = new Map<BulkField, string>();
  for (const message of messages) {
    const match = MESSAGE_FIELDS.find(([prefix]) => message.startsWith(`${prefix} `));
    if (match && !problems.has(match[1])) problems.set(match[1], message);
  }
  return problems;
}
