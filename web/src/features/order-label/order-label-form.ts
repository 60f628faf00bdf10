import { type BulkRow, bulkRowProblems, fromOrderCreateBody, WEIGHT_UNIT } from '@flatship/order-files/rows';
import {
  type Address,
  type AvailableService,
  DEFAULT_COURIER,
  type OrderCreateBody,
  readDecimal,
} from '@flatship/proto';
import { serverMessage } from '../../app/server-message';

/** Spec doc 1 §9. */
export const DEFAULT_MAX_WEIGHT = 70;
export const COUNTRY = 'US';
export const DEFAULT_QUANTITY = '1';
/**
 * The spec's default From state is 'TE', which is not a US state (the server
 * would reject it and the state list cannot show it); Texas is the state it
 * most plausibly abbreviates, so the form starts on TX.
 */
export const DEFAULT_FROM_STATE = 'TX';
export const DEFAULT_TO_STATE = 'CA';

export interface AddressForm {
  name: string;
  company: string;
  phone: string;
  street: string;
  street2: string;
  city: string;
  state: string;
  zip: string;
}

export interface PackageForm {
  length: string;
  width: string;
  height: string;
  weight: string;
  description: string;
  /** reference1, labelled Quantity. */
  quantity: string;
  /** reference2, labelled SKU Number. */
  sku: string;
  /** Shown but never sent (spec doc 1 §2). */
  signature: boolean;
  saturday: boolean;
}

export interface LabelForm {
  serviceUid: string;
  pkg: PackageForm;
  from: AddressForm;
  to: AddressForm;
}

export const emptyAddress = (state: string): AddressForm => ({
  name: '',
  company: '',
  phone: '',
  street: '',
  street2: '',
  city: '',
  state,
  zip: '',
});

export const initialLabelForm = (): LabelForm => ({
  serviceUid: '',
  pkg: {
    length: '',
    width: '',
    height: '',
    weight: '',
    description: '',
    quantity: DEFAULT_QUANTITY,
    sku: '',
    signature: false,
    saturday: false,
  },
  from: emptyAddress(DEFAULT_FROM_STATE),
  to: emptyAddress(DEFAULT_TO_STATE),
});

/** A saved address as the form holds it; an unknown state keeps the card's current one. */
export function addressFormFrom(
  saved: Address,
  current: AddressForm,
  isKnownState: (s: string) => boolean,
): AddressForm {
  const state = (saved.state ?? '').trim().toUpperCase();
  return {
    name: saved.name ?? '',
    company: saved.company ?? '',
    phone: saved.phone ?? '',
    street: saved.street ?? '',
    street2: saved.street2 ?? '',
    city: saved.city ?? '',
    state: isKnownState(state) ? state : current.state,
    zip: String(saved.zip ?? ''),
  };
}

/** A service from the server with the spec's defaults filled in (category 'Other', maxWeight 70). */
export function normaliseService(raw: Partial<AvailableService>): AvailableService | null {
  if (!raw || typeof raw.name !== 'string' || !raw.name) return null;
  const maxWeight = Number(raw.maxWeight);
  return {
    uid: typeof raw.uid === 'string' && raw.uid ? raw.uid : raw.name,
    name: raw.name,
    category: typeof raw.category === 'string' && raw.category.trim() ? raw.category : 'Other',
    maxWeight: Number.isFinite(maxWeight) && maxWeight > 0 ? maxWeight : DEFAULT_MAX_WEIGHT,
  };
}

/** Services grouped by category, groups in the order they first appear. */
export function groupByCategory(services: AvailableService[]): { category: string; services: AvailableService[] }[] {
  const groups = new Map<string, AvailableService[]>();
  for (const service of services) {
    const list = groups.get(service.category) ?? [];
    list.push(service);
    groups.set(service.category, list);
  }
  return [...groups].map(([category, list]) => ({ category, services: list }));
}

/** Weight as typed, kept between 0 and the service's maximum: a larger value becomes the maximum. */
export function clampWeight(raw: string, maxWeight: number): string {
  const read = readDecimal(raw);
  if (typeof read !== 'object') return raw;
  const { value } = read;
  if (value > maxWeight) return String(maxWeight);
  if (value < 0) return '0';
  return raw;
}

/** The weight the price is asked for: 1 when empty or not a positive number. */
export function priceWeight(raw: string): number {
  const read = readDecimal(raw);
  return typeof read === 'object' && read.value > 0 ? read.value : 1;
}

export interface MissingField {
  id: string;
  label: string;
}

const REQUIRED_PACKAGE: [keyof PackageForm, string][] = [
  ['weight', 'Weight'],
  ['length', 'Length'],
  ['width', 'Width'],
  ['height', 'Height'],
];
const REQUIRED_ADDRESS: [keyof AddressForm, string][] = [
  ['name', 'name'],
  ['street', 'street'],
  ['city', 'city'],
  ['zip', 'ZIP code'],
];

/** Input ids, shared by the page and the validation so a message can focus its field. */
export const fieldId = {
  pkg: (key: keyof PackageForm) => `package-${key}`,
  address: (side: 'from' | 'to', key: keyof AddressForm) => `${side}-${key}`,
};

/** Required fields left blank, in the order they appear on screen. */
export function missingFields(form: LabelForm): MissingField[] {
  const missing: MissingField[] = [];
  for (const [key, label] of REQUIRED_PACKAGE) {
    if (!String(form.pkg[key]).trim()) missing.push({ id: fieldId.pkg(key), label });
  }
  for (const side of ['from', 'to'] as const) {
    const who = side === 'from' ? 'Sender' : 'Receiver';
    for (const [key, label] of REQUIRED_ADDRESS) {
      if (!form[side][key].trim()) missing.push({ id: fieldId.address(side, key), label: `${who} ${label}` });
    }
  }
  return missing;
}

/** The form's input that holds each field of the shared shipment rules' row. */
const INPUT_OF: Partial<Record<keyof BulkRow, string>> = {
  PackageLength: fieldId.pkg('length'),
  PackageWidth: fieldId.pkg('width'),
  PackageHeight: fieldId.pkg('height'),
  PackageWeight: fieldId.pkg('weight'),
  PackageDescription: fieldId.pkg('description'),
  quantity: fieldId.pkg('quantity'),
  skuNumber: fieldId.pkg('sku'),
  ...Object.fromEntries(
    (['from', 'to'] as const).flatMap((side) => {
      const p = side === 'from' ? 'From' : 'To';
      const name = side === 'from' ? 'FromSenderName' : 'ToRecipientName';
      return [
        [name, fieldId.address(side, 'name')],
        [`${p}Company`, fieldId.address(side, 'company')],
        [`${p}Phone`, fieldId.address(side, 'phone')],
        [`${p}Street1`, fieldId.address(side, 'street')],
        [`${p}Street2`, fieldId.address(side, 'street2')],
        [`${p}City`, fieldId.address(side, 'city')],
        [`${p}StateProvince`, fieldId.address(side, 'state')],
        [`${p}ZipPostal`, fieldId.address(side, 'zip')],
      ];
    }),
  ),
};

/**
 * The first rule the form breaks, or null: the required fields as the spec words them, then the
 * shipment rules the bulk table and the server run (order-files' bulkRowProblems), so the form
 * refuses what the server would and in the same words.
 */
export function formProblem(form: LabelForm): { id: string; message: string } | null {
  const missing = missingFields(form);
  if (missing.length > 0) {
    return {
      id: missing[0]?.id ?? '',
      message: `Please fill in the required fields: ${missing.map((m) => m.label).join(', ')}`,
    };
  }
  // The service is checked before this and is not part of the rules asked here.
  const noService: AvailableService = { uid: '', name: '', category: '', maxWeight: 0 };
  const [first] = bulkRowProblems(fromOrderCreateBody(buildOrderPayload(form, noService, '')));
  if (!first) return null;
  return { id: INPUT_OF[first.field] ?? '', message: first.message };
}

/** Plain decimals as numbers; anything else as typed, so the server names the field (Number() reads '0x10' as 16). */
const toNumber = (raw: string): number | string => {
  const read = readDecimal(raw);
  return typeof read === 'object' ? read.value : raw.trim();
};

/** The order-create payload of spec doc 1 §3; the checkboxes and any price are left out on purpose. */
export function buildOrderPayload(form: LabelForm, service: AvailableService, userId: string): OrderCreateBody {
  const { pkg, from, to } = form;
  return {
    user_id: userId,
    service_name: service.name,
    manifested: false,
    courier: DEFAULT_COURIER,
    sender: {
      sender_name: from.name.trim(),
      sender_phone: from.phone.trim(),
      sender_company: from.company.trim(),
      sender_address1: from.street.trim(),
      sender_address2: from.street2.trim(),
      sender_city: from.city.trim(),
      sender_state_province: from.state,
      sender_zip_postal: from.zip.trim(),
      sender_country: COUNTRY,
    },
    receiver: {
      receiver_name: to.name.trim(),
      receiver_phone: to.phone.trim(),
      receiver_company: to.company.trim(),
      receiver_address1: to.street.trim(),
      receiver_address2: to.street2.trim(),
      receiver_city: to.city.trim(),
      receiver_state_province: to.state,
      receiver_zip_postal: to.zip.trim(),
      receiver_country: COUNTRY,
    },
    package: {
      package_length: toNumber(pkg.length),
      package_width: toNumber(pkg.width),
      package_height: toNumber(pkg.height),
      package_weight: toNumber(pkg.weight),
      package_weight_unit: WEIGHT_UNIT,
      package_description: pkg.description.trim(),
      package_reference1: pkg.quantity.trim() || DEFAULT_QUANTITY,
      package_reference2: pkg.sku.trim(),
    },
  };
}

export const UNKNOWN_ERROR = 'An Unknown Error Occurred';

/**
 * Spec doc 1 §8: the server's message; with a colon only the part after the
 * first one, trimmed and capitalised ('Carrier error: address not found' →
 * 'Address not found'); otherwise 'An Unknown Error Occurred'.
 */
export function labelOrderErrorMessage(error: unknown): string {
  const raw = serverMessage(error) ?? '';
  const colon = raw.indexOf(':');
  const text = (colon >= 0 ? raw.slice(colon + 1) : raw).trim();
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : UNKNOWN_ERROR;
}

/**
 * A fresh Idempotency-Key. crypto.randomUUID exists only in secure contexts
 * (https or localhost); elsewhere a v4 UUID is built from getRandomValues.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
