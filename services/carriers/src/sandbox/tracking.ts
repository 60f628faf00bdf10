import { buildImpb, serialLengthFor } from '../usps/impb';
import { digitsFromKey, unitIntervalFromKey } from './key-hash';

/** The tracking number the sandbox issues for a key: a pure function, which is what makes purchases idempotent. */
export function sandboxTrackingNumber(input: {
  idempotencyKey: string;
  serviceTypeCode: string;
  mailerId: string;
}): string {
  return buildImpb({
    serviceTypeCode: input.serviceTypeCode,
    mailerId: input.mailerId,
    serial: digitsFromKey(input.idempotencyKey, serialLengthFor(input.mailerId)),
  });
}

/** Whether a key falls in the failing fraction for a failure rate; the same keys fail on every call and every node. */
export function isSandboxFailureKey(idempotencyKey: string, failureRate: number): boolean {
  return unitIntervalFromKey(idempotencyKey) < failureRate;
}
