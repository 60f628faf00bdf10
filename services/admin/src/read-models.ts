import type { EventBus, Subscription } from '@flatship/kit/bus';
import {
  AccountChangedEventSchema,
  type ImpersonationActionEvent,
  ImpersonationActionEventSchema,
  TOPICS,
  UserChangedEventSchema,
} from '@flatship/proto';
import { Value } from 'typebox/value';
import type { AuditRepo } from './db/audit-repo';
import { profileFromEvent, type UsersViewRepo } from './db/users-view-repo';

/** Shared by every replica: each event is applied once, by whichever replica holds its partition. */
export const USERS_VIEW_GROUP = 'admin-users-view';
export const AUDIT_GROUP = 'admin-audit';

export interface ReadModelDeps {
  view: Pick<UsersViewRepo, 'applyProfiles' | 'setAccess' | 'applyMoney'>;
  audit: Pick<AuditRepo, 'record'>;
  log: { warn(obj: object, msg?: string): void };
}

/**
 * Feeds admin's read models from the bus: the user table from `user.changed` (auth) and `account.changed`
 * (payments), the impersonation audit from `impersonation.action` (gateway). Every write is guarded (by
 * `updatedAt`, by `seq`, by a unique index), so redelivery and late events change nothing wrongly.
 */
export async function followReadModels(bus: Pick<EventBus, 'subscribe'>, deps: ReadModelDeps): Promise<Subscription[]> {
  const skip = (topic: string, key: string) => deps.log.warn({ topic, key }, `ignoring malformed ${topic} event`);
  // Both groups are joined at once: each join waits on the broker (seconds on Kafka), so one after the other would add up.
  const opened = await Promise.allSettled([
    bus.subscribe({
      group: USERS_VIEW_GROUP,
      topics: [TOPICS.userChanged, TOPICS.accountChanged],
      handler: async (msg) => {
        if (msg.topic === TOPICS.userChanged) {
          if (!Value.Check(UserChangedEventSchema, msg.value)) return skip(msg.topic, msg.key);
          const profile = profileFromEvent(msg.value);
          if (profile) await deps.view.applyProfiles([profile]);
          else await deps.view.setAccess(msg.value.id, { role: msg.value.role, activation: msg.value.activation });
          return;
        }
        if (!Value.Check(AccountChangedEventSchema, msg.value)) return skip(msg.topic, msg.key);
        await deps.view.applyMoney([msg.value]);
      },
    }),
    // An audit entry is never skipped quietly: an event that fails its schema goes to the dead-letter topic with an
    // error logged, and one that cannot be written is retried (each failure logged as an error) and then
    // dead-lettered, where it waits to be replayed.
    bus.subscribe({
      group: AUDIT_GROUP,
      topics: [TOPICS.impersonationAction],
      schema: ImpersonationActionEventSchema,
      handler: async (msg) => {
        await deps.audit.record(msg.value as ImpersonationActionEvent);
      },
    }),
  ]);
  const subscriptions = opened.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = opened.find((r) => r.status === 'rejected');
  if (failed) {
    // Nobody else holds the one that opened: close it rather than leave it consuming.
    await Promise.all(subscriptions.map((sub) => sub.close()));
    throw failed.reason;
  }
  return subscriptions;
}
