import type { Carrier, LabelResult } from './port';
import { courierOfService } from './registry';

/** One carrier purchase as metrics see it. */
export interface PurchaseObservation {
  /** The courier that sells the service (`usps`, `test-parcel`); `unknown` for a service no carrier sells. */
  courier: string;
  serviceUid: string;
  /** ok: a label; refused: the carrier said no (`LabelResult.ok === false`); error: it threw. */
  outcome: 'ok' | 'refused' | 'error';
  seconds: number;
}

/**
 * The same carrier, with every purchase timed and reported to `observe` (the
 * carrier latency histogram and the labels bought/failed counters), whatever
 * its outcome. Everything else of the carrier is untouched.
 */
export function observePurchases<C extends Pick<Carrier, 'purchaseLabel'>>(
  carrier: C,
  observe: (o: PurchaseObservation) => void,
): C {
  const observed = Object.create(carrier) as C;
  observed.purchaseLabel = async (req) => {
    const started = process.hrtime.bigint();
    const report = (outcome: PurchaseObservation['outcome']) =>
      observe({
        courier: courierOfService(req.serviceUid) ?? 'unknown',
        serviceUid: req.serviceUid,
        outcome,
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
      });
    let result: LabelResult;
    try {
      result = await carrier.purchaseLabel(req);
    } catch (err) {
      report('error');
      throw err;
    }
    report(result.ok ? 'ok' : 'refused');
    return result;
  };
  return observed;
}
