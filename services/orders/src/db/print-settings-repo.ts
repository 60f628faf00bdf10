import type { Knex } from '@flatship/kit';
import { isPrintFormat } from '@flatship/proto';
import type { PrintSettingsRepo } from '../domain/print-settings';

/** Print settings, one row per user who chose one (migration 0015). */
export function createPrintSettingsRepo(db: Knex): PrintSettingsRepo {
  return {
    async find(userId) {
      const row = await db('print_settings').where({ user_id: userId }).first('label_format');
      const format: unknown = row?.label_format;
      return isPrintFormat(format) ? format : null;
    },
    async save(userId, labelFormat, by) {
      await db('print_settings')
        .insert({ user_id: userId, label_format: labelFormat, updated_by: by, updated_at: db.fn.now() })
        .onConflict('user_id')
        .merge(['label_format', 'updated_by', 'updated_at']);
    },
  };
}
