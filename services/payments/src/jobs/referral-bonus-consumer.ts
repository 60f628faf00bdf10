import type { EventBus, Subscription } from '@flatship/kit/bus';
import { type DepositSettledEvent, DepositSettledEventSchema, TOPICS } from '@flatship/proto';
import { type CreditReferralBonusDeps, creditReferralBonus } from '../domain/credit-referral-bonus';

/** One group for every replica: each settled deposit is acted on by whichever replica holds its partition. */
export const REFERRAL_BONUS_GROUP = 'payments-referral-bonus';

/**
 * Follows `deposit.settled` and pays referral bonuses. A handler that throws (auth or the database away) gets the
 * same event again, without limit: a bonus must not be dead-lettered because auth was restarting; the use case is
 * idempotent per referred user and side. A value that fails the schema goes to `deposit.settled.dlq` at once.
 */
export function startReferralBonusConsumer(
  bus: Pick<EventBus, 'subscribe'>,
  deps: CreditReferralBonusDeps,
): Promise<Subscription> {
  return bus.subscribe({
    group: REFERRAL_BONUS_GROUP,
    topics: [TOPICS.depositSettled],
    schema: DepositSettledEventSchema,
    maxAttempts: Number.POSITIVE_INFINITY,
    handler: async (msg) => {
      await creditReferralBonus(deps, msg.value as DepositSettledEvent);
    },
  });
}
