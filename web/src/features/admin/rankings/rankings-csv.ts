import type { RankingPeriod, RankingRow } from '@flatship/proto';
import { saveBlob } from '../../bulk-progress/bulk-download';

const HEADER = [
  'Rank',
  'User',
  'Email',
  'Role',
  'Status',
  'Labels',
  'Revenue',
  'Cost',
  'Margin',
  'Average per day',
  'First order',
  'Last order',
];

/** A CSV field: quoted when it holds a comma, quote or line break; a leading =+-@ is defused for spreadsheets. */
function field(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The rows shown, in the order shown, as CSV (revenue in dollars with 2 decimals). */
export function rankingsCsv(rows: RankingRow[]): string {
  const lines = rows.map((r, i) =>
    [
      i + 1,
      r.userName,
      r.userEmail,
      r.userRole ?? '',
      r.activation === 'block' ? 'Blocked' : r.activation === 'allow' ? 'Active' : '',
      r.labelCount,
      r.totalRevenue.toFixed(2),
      r.totalCost.toFixed(2),
      r.margin.toFixed(2),
      r.averageLabelsPerDay.toFixed(2),
      r.firstOrderDate,
      r.lastOrderDate,
    ]
      .map(field)
      .join(','),
  );
  return `${[HEADER.join(','), ...lines].join('\r\n')}\r\n`;
}

export const rankingsCsvName = (period: RankingPeriod) => `user-volume-rankings-${period}.csv`;

/** Hands the CSV to the browser as a download. */
export function downloadCsv(csv: string, fileName: string): void {
  saveBlob({ blob: new Blob([csv], { type: 'text/csv;charset=utf-8' }), fileName });
}
