import type { Migration } from '@flatship/kit';

/**
 * Each user's print setting: the format their label downloads come in (single labels and merged bulk files).
 * A user without a row prints 4x6 PDFs. Kept by orders, which serves the downloads and whose label worker buys
 * a bulk order's labels in the format asked for.
 */
export const addPrintSettings: Migration = {
  name: '0015_print_settings',
  async up(db) {
    await db.raw(`
      create table print_settings (
        user_id uuid primary key,
        label_format text not null
          constraint print_settings_label_format_check check (label_format in ('pdf-4x6', 'pdf-letter-2up', 'zpl-203')),
        updated_by uuid not null,
        updated_at timestamptz not null default now()
      )`);
  },
};
