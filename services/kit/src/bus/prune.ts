import type { Knex } from 'knex';
import { checkSchemaName } from './pg-support';
import { execute } from './sql';

export interface PruneOptions {
  schema?: string;
  /** Messages older than this are deleted whether or not every group has read them, as Kafka's retention.ms does. */
  retentionMs: number;
}

/**
 * Keeps the log from growing without bound; run it periodically from one
 * place. Also forgets the offsets of groups that have had no member for the
 * retention period (per-replica groups leave such offsets behind), since
 * everything they had read is gone by then anyway.
 */
export async function pruneBus(db: Knex, opts: PruneOptions): Promise<{ messages: number; offsets: number }> {
  const s = `"${checkSchemaName(opts.schema ?? 'bus')}"`;
  const messages = await execute(
    db,
    `delete from ${s}.messages where created_at < now() - ? * interval '1 millisecond'`,
    [opts.retentionMs],
  );
  const offsets = await execute(
    db,
    `delete from ${s}.offsets o where o.updated_at < now() - ? * interval '1 millisecond'
       and not exists (select 1 from ${s}.members m where m.group_id = o.group_id)`,
    [opts.retentionMs],
  );
  return { messages, offsets };
}
