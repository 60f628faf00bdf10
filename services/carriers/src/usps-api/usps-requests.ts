// Our requests as USPS's v3 APIs take them: pure functions, one per body, each following its spec's schema and the
// spec's own examples (GroundAdvantageRequestWithImageInfo, BaseRatesQuery, SCANFormRequest, the address query).
import type { LabelAddress, LabelParcel, LabelReferences } from '../port';

/** Our USPS services and the Labels API `mailClass` and single-piece `rateIndicator` of each. */
export const USPS_MAIL_CLASSES: Record<string, { mailClass: string; rateIndicator: string }> = {
  usps_priority_mail: { mailClass: 'PRIORITY_MAIL', rateIndicator: 'SP' },
  usps_ground_advantage: { mailClass: 'USPS_GROUND_ADVANTAGE', rateIndicator: 'SP' },
  // "PA - Priority Mail Express Single Piece"; SP is the single-piece indicator of the other classes.
  usps_priority_mail_express: { mailClass: 'PRIORITY_MAIL_EXPRESS', rateIndicator: 'PA' },
};

/** The last 50 characters a USPS name or street field holds, and the 28 of a city (the specs' `maxLength`). */
const cut = (s: string | undefined, max: number) => (s ?? '').trim().replace(/\s+/g, ' ').slice(0, max);

/**
 * `firstName`/`lastName` or `firm`: USPS wants "First and Last Name or Firm Name". A name of two or more words is
 * split before its last word; a one-word name goes as the firm when there is no company, so the rule still holds.
 */
export function addresseeOf(address: Pick<LabelAddress, 'name' | 'company'>): Record<string, string> {
  const words = cut(address.name, 200).split(' ').filter(Boolean);
  const company = cut(address.company, 50);
  const out: Record<string, string> = {};
  if (words.length >= 2) {
    out.firstName = cut(words.slice(0, -1).join(' '), 50);
    out.lastName = cut(words.at(-1), 50);
  } else if (words.length === 1) {
    if (company) out.firstName = cut(words[0], 50);
    else out.firm = cut(words[0], 50);
  }
  if (company) out.firm = company;
  return out;
}

/** A ZIP as USPS's two fields: `ZIPCode` (5 digits) and, when given, `ZIPPlus4`. */
export function zipFields(zip: string): { ZIPCode: string; ZIPPlus4?: string } {
  const digits = zip.replace(/\D/g, '');
  return digits.length === 9 ? { ZIPCode: digits.slice(0, 5), ZIPPlus4: digits.slice(5) } : { ZIPCode: digits };
}

/** A phone as USPS's `Phone` pattern takes it (digits only); left out when it cannot be one. */
function phoneOf(phone: string | undefined): string | undefined {
  const digits = (phone ?? '').replace(/\D/g, '');
  return /^[0-9]{6,15}$/.test(digits) ? digits : undefined;
}

/** `DomesticLabelAddress` / `DomesticLabelToAddress`. */
export function labelAddressOf(address: LabelAddress): Record<string, unknown> {
  const phone = phoneOf(address.phone);
  const secondary = cut(address.street2, 50);
  return {
    ...addresseeOf(address),
    streetAddress: cut(address.street1, 50),
    ...(secondary ? { secondaryAddress: secondary } : {}),
    city: cut(address.city, 28),
    state: address.state.trim().toUpperCase(),
    ...zipFields(address.zip),
    ...(phone ? { phone } : {}),
  };
}

/** Length, width and height as the prices spec orders them ("The maximum dimension is always length"). */
export function sortedDimensions(parcel: LabelParcel): { length: number; width: number; height: number } {
  const [length, width, height] = [parcel.length, parcel.width, parcel.height].sort((a, b) => b - a) as [
    number,
    number,
    number,
  ];
  return { length, width, height };
}

/**
 * MACHINABLE or NONSTANDARD, the two parcel categories of the prices spec, which sends the reader to DMM 201: a
 * machinable parcel is at least 6 x 3 x 0.25 in and 6 oz, at most 22 x 18 x 15 in and 25 lb (the "Nonstandard
 * Length > 22" fee of the spec's examples is that limit). USPS applies the fees it finds due, and they come back
 * in the label's metadata, which is what the label costs us.
 */
export function processingCategoryOf(parcel: LabelParcel, weightLb: number): 'MACHINABLE' | 'NONSTANDARD' {
  const { length, width, height } = sortedDimensions(parcel);
  const fits = length <= 22 && width <= 18 && height <= 15 && weightLb <= 25;
  const bigEnough = length >= 6 && width >= 3 && height >= 0.25 && weightLb >= 6 / 16;
  return fits && bigEnough ? 'MACHINABLE' : 'NONSTANDARD';
}

/** The billed weight: like pricing and the sandbox, a weight of 0 is the 1 lb minimum (USPS wants more than 0). */
export const billedWeightLb = (weightLb: number) => (weightLb === 0 ? 1 : weightLb);

/** YYYY-MM-DD in UTC: never a day behind any US origin's local date, which USPS would refuse as past. */
export function mailingDateOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Up to three `customerReference`s printed on the label (4x6 labels show all four USPS allows), 30 characters each. */
export function customerReferencesOf(references: LabelReferences | undefined): Record<string, unknown>[] {
  if (!references) return [];
  return [references.orderId, references.sku, references.quantity ? `Qty ${references.quantity}` : undefined]
    .map((r) => cut(r, 30))
    .filter((r) => r !== '')
    .map((referenceNumber) => ({ referenceNumber, printReferenceNumber: true }));
}

/** The `LabelRequest` body of POST /labels/v3/label, for a bare 4x6 PDF label with no receipt. */
export function labelRequestBody(input: {
  serviceUid: string;
  from: LabelAddress;
  to: LabelAddress;
  parcel: LabelParcel;
  references?: LabelReferences;
  mailingDate: string;
}): Record<string, unknown> {
  const service = USPS_MAIL_CLASSES[input.serviceUid];
  if (!service) throw new Error(`no USPS mail class for ${input.serviceUid}`);
  const weight = billedWeightLb(input.parcel.weightLb);
  const references = customerReferencesOf(input.references);
  return {
    // As the spec's GroundAdvantageRequestWithImageInfo example: receiptOption NONE ("print the Label only and no
    // Receipt"), so the PDF is one bare 4x6 page the product can merge and print; the postage amount is not printed.
    imageInfo: {
      imageType: 'PDF',
      labelType: '4X6LABEL',
      receiptOption: 'NONE',
      suppressPostage: true,
      suppressMailDate: true,
      returnLabel: false,
    },
    toAddress: labelAddressOf(input.to),
    fromAddress: labelAddressOf(input.from),
    packageDescription: {
      mailClass: service.mailClass,
      rateIndicator: service.rateIndicator,
      weightUOM: 'lb',
      weight,
      dimensionsUOM: 'in',
      ...sortedDimensions(input.parcel),
      processingCategory: processingCategoryOf(input.parcel, weight),
      mailingDate: input.mailingDate,
      extraServices: [],
      destinationEntryFacilityType: 'NONE',
      ...(references.length > 0 ? { customerReference: references } : {}),
    },
  };
}

/** The `BaseRatesQuery` of POST /prices/v3/base-rates/search: commercial prices, or the EPS account's contract. */
export function baseRatesQueryOf(input: {
  serviceUid: string;
  from: LabelAddress;
  to: LabelAddress;
  parcel: LabelParcel;
  mailingDate: string;
  epsAccount: string;
}): Record<string, unknown> {
  const service = USPS_MAIL_CLASSES[input.serviceUid];
  if (!service) throw new Error(`no USPS mail class for ${input.serviceUid}`);
  const weight = billedWeightLb(input.parcel.weightLb);
  return {
    originZIPCode: zipFields(input.from.zip).ZIPCode,
    destinationZIPCode: zipFields(input.to.zip).ZIPCode,
    weight,
    ...sortedDimensions(input.parcel),
    mailClass: service.mailClass,
    processingCategory: processingCategoryOf(input.parcel, weight),
    rateIndicator: service.rateIndicator,
    destinationEntryFacilityType: 'NONE',
    priceType: 'COMMERCIAL',
    mailingDate: input.mailingDate,
    // "If an accountNumber is provided, it overrides the requested priceType and the response will return contract
    // rates (if they exist for that account)": the price the platform pays.
    accountType: 'EPS',
    accountNumber: input.epsAccount,
  };
}

/** The query of GET /addresses/v3/address. */
export function addressQueryOf(address: LabelAddress): Record<string, string | undefined> {
  const zip = zipFields(address.zip);
  return {
    firm: cut(address.company, 50) || undefined,
    streetAddress: address.street1.trim(),
    secondaryAddress: address.street2?.trim() || undefined,
    city: address.city.trim() || undefined,
    state: address.state.trim().toUpperCase(),
    ZIPCode: /^\d{5}$/.test(zip.ZIPCode) ? zip.ZIPCode : undefined,
    ZIPPlus4: zip.ZIPPlus4,
  };
}

/** The `SCANFormRequest` of POST /scan-forms/v3/scan-form, by the labels' tracking numbers (`LabelShipment`). */
export function scanFormRequestOf(input: {
  from: LabelAddress;
  mailingDate: string;
  trackingNumbers: readonly string[];
}): Record<string, unknown> {
  const { phone: _phone, ...fromAddress } = labelAddressOf(input.from);
  return {
    imageInfo: { imageType: 'PDF', labelType: '8.5X11LABEL' },
    mailingDate: input.mailingDate,
    // Labels bought on other days join this form with its date instead of being refused.
    overwriteMailingDate: true,
    entryFacilityZIPCode: zipFields(input.from.zip).ZIPCode,
    destinationEntryFacilityType: 'NONE',
    shipment: { trackingNumbers: [...input.trackingNumbers] },
    fromAddress,
  };
}

/** A field as compared: case, spacing and punctuation aside, `Street` and `St` still differ (a correction). */
const comparable = (v: string | undefined) =>
  (v ?? '').toUpperCase().replace(/[.,#]/g, ' ').replace(/\s+/g, ' ').trim();

/**
 * The fields USPS changed. A ZIP+4 added to a five-digit ZIP is not a change (the address was right; USPS
 * completed it); a different ZIP, or a different +4, is.
 */
export function changedFields(given: LabelAddress, standard: LabelAddress): (keyof LabelAddress)[] {
  const changed: (keyof LabelAddress)[] = [];
  for (const field of ['street1', 'street2', 'city', 'state'] as const) {
    if (comparable(given[field]) !== comparable(standard[field])) changed.push(field);
  }
  const a = zipFields(given.zip);
  const b = zipFields(standard.zip);
  if (a.ZIPCode !== b.ZIPCode || (a.ZIPPlus4 !== undefined && a.ZIPPlus4 !== b.ZIPPlus4)) changed.push('zip');
  return changed;
}
