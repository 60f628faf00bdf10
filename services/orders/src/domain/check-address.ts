import { type AddressVerdict, type LabelAddress, standardStreet } from '@flatship/carriers';
import { AppError } from '@flatship/kit';
import {
  ADDRESS_CHECK_UNAVAILABLE,
  type AddressCheck,
  type AddressToCheck,
  isRecipientState,
  VERIFY_BATCH_MAX,
  ZIP_PATTERN,
} from '@flatship/proto';

/** Asks a carrier about an address (`adapters/address-verifier.ts`); never throws for the carrier's failures. */
export interface AddressVerifier {
  verify(address: LabelAddress, serviceUid?: string): Promise<AddressVerdict>;
}

export interface CheckAddressDeps {
  /** Absent when no enabled carrier checks addresses: every check is `unavailable`. */
  addressVerifier?: AddressVerifier | null;
}

/** Checks sent to the carrier at once by one batch: a file's check never floods the carrier. */
export const VERIFY_CONCURRENCY = 4;

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/** The address as the carrier needs it, or the first thing wrong with it, naming the field. */
export function addressToCheck(input: AddressToCheck, where = ''): LabelAddress {
  const fail = (message: string): never => {
    throw new AppError('BAD_REQUEST', `${where}${message}`);
  };
  const street1 = text(input.street1);
  const city = text(input.city);
  const state = text(input.state).toUpperCase();
  const zip = text(input.zip);
  if (!street1) fail('Street is required');
  if (!city) fail('City is required');
  if (!state) fail('State is required');
  if (!isRecipientState(state)) fail('State must be a US state');
  if (!zip) fail('ZIP code is required');
  if (!ZIP_PATTERN.test(zip)) fail('ZIP code must be a 5-digit ZIP code or ZIP+4');
  for (const [field, value] of [
    ['Name', input.name],
    ['Company', input.company],
    ['Street', street1],
    ['Street 2', input.street2],
    ['City', city],
  ] as const) {
    if (text(value).length > 200) fail(`${field} must be at most 200 characters`);
  }
  const street2 = text(input.street2);
  const company = text(input.company);
  return {
    name: text(input.name) || 'Resident',
    ...(company ? { company } : {}),
    street1,
    ...(street2 ? { street2 } : {}),
    city,
    state,
    zip,
    country: 'US',
  };
}

const words = (s: string | undefined) => standardStreet(s ?? '');
const place = (s: string) => s.toUpperCase().replace(/[.,]/g, ' ').replace(/\s+/g, ' ').trim();

/**
 * Whether a carrier's correction changes where the parcel goes. Carriers give every address back in capitals with
 * standard abbreviations and a ZIP+4; that alone is no correction worth asking the buyer about.
 */
export function isMaterialCorrection(given: LabelAddress, suggested: LabelAddress): boolean {
  return (
    words(given.street1) !== words(suggested.street1) ||
    words(given.street2) !== words(suggested.street2) ||
    place(given.city) !== place(suggested.city) ||
    place(given.state) !== place(suggested.state) ||
    given.zip.slice(0, 5) !== suggested.zip.slice(0, 5)
  );
}

const checked = (a: LabelAddress) => ({
  street1: a.street1,
  street2: a.street2 ?? '',
  city: a.city,
  state: a.state,
  zip: a.zip,
});

/** What the carrier says of one valid address; a carrier that cannot be asked gives `unavailable`. */
export async function verifyOne(
  deps: CheckAddressDeps,
  address: LabelAddress,
  serviceUid?: string,
): Promise<AddressCheck> {
  if (!deps.addressVerifier) return { verdict: 'unavailable', message: ADDRESS_CHECK_UNAVAILABLE };
  let verdict: AddressVerdict;
  try {
    verdict = await deps.addressVerifier.verify(address, serviceUid);
  } catch {
    // A carrier's crash is an outage to the buyer: the label can still be bought.
    return { verdict: 'unavailable', message: ADDRESS_CHECK_UNAVAILABLE };
  }
  if (!verdict.ok) return { verdict: 'unavailable', message: ADDRESS_CHECK_UNAVAILABLE };
  if (verdict.verdict === 'undeliverable') return { verdict: 'undeliverable', message: verdict.reason };
  if (verdict.verdict === 'corrected' && isMaterialCorrection(address, verdict.address)) {
    return { verdict: 'corrected', address: checked(verdict.address), corrected: verdict.corrected };
  }
  return { verdict: 'deliverable', address: checked(verdict.address) };
}

/**
 * Called with the number of addresses about to be checked, once the request is known to be good: where a user's
 * checks are counted (and refused past the limit), so a request refused for its input uses up none of them.
 */
export type BeforeChecking = (count: number) => void;

/** POST /api/orders/verify-address: one address, checked as typed. */
export async function checkAddress(
  deps: CheckAddressDeps,
  input: AddressToCheck,
  serviceUid?: string,
  beforeChecking: BeforeChecking = () => {},
): Promise<AddressCheck> {
  const address = addressToCheck(input);
  beforeChecking(1);
  return verifyOne(deps, address, serviceUid);
}

/**
 * POST /api/orders/verify-addresses: up to VERIFY_BATCH_MAX addresses, all valid or none checked (the first wrong
 * one is named by its place in the list), answered in order, VERIFY_CONCURRENCY at a time.
 */
export async function checkAddresses(
  deps: CheckAddressDeps,
  inputs: readonly AddressToCheck[],
  serviceUid?: string,
  beforeChecking: BeforeChecking = () => {},
): Promise<AddressCheck[]> {
  if (inputs.length === 0) throw new AppError('BAD_REQUEST', 'Give at least one address to check');
  if (inputs.length > VERIFY_BATCH_MAX) {
    throw new AppError('BAD_REQUEST', `At most ${VERIFY_BATCH_MAX} addresses can be checked at once`);
  }
  const addresses = inputs.map((input, i) => addressToCheck(input, `Address ${i + 1}: `));
  beforeChecking(addresses.length);
  const results: AddressCheck[] = new Array(addresses.length);
  let next = 0;
  const worker = async () => {
    while (next < addresses.length) {
      const i = next++;
      results[i] = await verifyOne(deps, addresses[i] as LabelAddress, serviceUid);
    }
  };
  await Promise.all(Array.from({ length: Math.min(VERIFY_CONCURRENCY, addresses.length) }, worker));
  return results;
}

/**
 * How many addresses one user may have checked in a window: enough for a few 1,000-row files a minute, not enough
 * to use Flatship as a free address-checking service. Counted in this process (a check costs nothing but carrier
 * quota, so a limit per instance is enough).
 */
export function createCheckLimiter(opts: { max: number; windowMs: number; now?: () => number }) {
  const now = opts.now ?? Date.now;
  const windows = new Map<string, { start: number; used: number }>();
  return {
    take(userId: string, count: number): void {
      const t = now();
      let w = windows.get(userId);
      if (!w || t - w.start >= opts.windowMs) {
        if (windows.size > 10_000) windows.clear();
        w = { start: t, used: 0 };
        windows.set(userId, w);
      }
      if (w.used + count > opts.max) {
        throw new AppError('RATE_LIMITED', 'Too many address checks. Please wait a minute and try again.');
      }
      w.used += count;
    },
  };
}
