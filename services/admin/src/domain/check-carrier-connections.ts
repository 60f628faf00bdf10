import type { CarrierConnectionReply } from '@flatship/proto';
import { MESSAGES } from './messages';
import type { CarrierAccounts } from './read-carrier-balance';

export interface CheckCarrierConnectionsDeps {
  carriers: CarrierAccounts;
  log: { warn(details: object, message: string): void };
  now?: () => number;
}

/**
 * Calls every enabled carrier with the configured account, one after the other (a check is rare and an operator
 * reads the answers in order), and reports each: what it confirmed, or what is wrong in our words. A check that
 * throws is logged with its error and reported as not answering, never with the carrier's raw text.
 */
export async function checkCarrierConnections(deps: CheckCarrierConnectionsDeps): Promise<CarrierConnectionReply> {
  const now = deps.now ?? Date.now;
  const carriers: CarrierConnectionReply['carriers'] = [];
  for (const carrier of deps.carriers.carriers ?? []) {
    const adapter = deps.carriers.adapter?.(carrier.id);
    const started = now();
    let ok = false;
    let message: string;
    if (!adapter?.checkConnection) message = MESSAGES.connectionUnsupported;
    else {
      try {
        const answer = await adapter.checkConnection();
        ok = answer.ok;
        message = answer.ok ? answer.detail : answer.message;
      } catch (err) {
        deps.log.warn({ err, carrier: carrier.id }, 'carrier connection check failed');
        message = MESSAGES.connectionFailed;
      }
    }
    carriers.push({ id: carrier.id, name: carrier.name, ok, message, ms: Math.max(0, Math.round(now() - started)) });
  }
  return { carriers };
}
