import type { AddressVerdict, Carrier, CarrierSet, LabelAddress } from '@flatship/carriers';
import type { AddressVerifier } from '../domain/check-address';

/** A carrier that does not answer a check within this long is taken as unavailable: buying goes on without it. */
export const VERIFY_TIMEOUT_MS = 8_000;

type Verifying = Partial<Pick<Carrier, 'verifyAddress'>> & Partial<Pick<CarrierSet, 'routes' | 'adapter' | 'carriers'>>;

/**
 * Address checks from the enabled carriers: the first carrier on the route of the service being bought that can
 * check addresses, else the first enabled one that can (a carrier set); a single carrier checks its own. Null when
 * none can. Checks cost nothing with any of them (the sandbox, USPS Addresses API, EasyPost verifications).
 */
export function createAddressVerifier(given: object, timeoutMs = VERIFY_TIMEOUT_MS): AddressVerifier | null {
  // The orders port types the carrier as what buying needs; the checks look for what it can do besides.
  const carrier = given as Verifying;
  const pick = (serviceUid?: string): Pick<Carrier, 'verifyAddress'> | null => {
    if (carrier.adapter && carrier.routes && carrier.carriers) {
      const route = serviceUid ? (carrier.routes().find((r) => r.serviceUid === serviceUid)?.carriers ?? []) : [];
      for (const id of [...route, ...carrier.carriers.map((p) => p.id)]) {
        const adapter = carrier.adapter(id);
        if (adapter?.verifyAddress) return adapter;
      }
      return null;
    }
    return carrier.verifyAddress ? (carrier as Pick<Carrier, 'verifyAddress'>) : null;
  };
  if (!pick()) return null;
  return {
    async verify(address: LabelAddress, serviceUid?: string): Promise<AddressVerdict> {
      const verifier = pick(serviceUid) ?? pick();
      if (!verifier?.verifyAddress) return { ok: false, message: 'No carrier checks addresses', retryable: false };
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<AddressVerdict>((resolve) => {
        timer = setTimeout(
          () => resolve({ ok: false, message: 'The carrier did not answer in time', retryable: true }),
          timeoutMs,
        );
      });
      try {
        return await Promise.race([verifier.verifyAddress(address), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
