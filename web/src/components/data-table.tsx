import { type ReactNode, useState } from 'react';
import { Pagination } from './pagination';
import { Spinner } from './spinner';
import './components.css';

/** Spec doc 1 §9: tables show 7 rows per page unless a screen says otherwise. */
export const DEFAULT_PAGE_SIZE = 7;

export interface Column<T> {
  key: string;
  header: ReactNode;
  /** Text naming the cell in the compact (card) layout; defaults to the header when it is a string. */
  label?: string;
  /** Cell content; defaults to `row[key]`. `index` is the row's position in `rows`. */
  render?: (row: T, index: number) => ReactNode;
  className?: string;
  align?: 'left' | 'center' | 'right';
}

export interface DataTableProps<T> {
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T, index: number) => string;
  pageSize?: number;
  emptyText?: string;
  /** Accessible name of the table (shown by the surrounding card's heading usually). */
  caption?: string;
  isLoading?: boolean;
  loadingText?: string;
  rowClassName?: (row: T) => string | undefined;
  /**
   * Server-side paging: pass the current page, its handler and the total row
   * count; `rows` is then only the current page.
   */
  page?: number;
  onPageChange?: (page: number) => void;
  totalRows?: number;
}

function cellClass<T>(column: Column<T>): string | undefined {
  const align = column.align && column.align !== 'left' ? `data-table__cell--${column.align}` : '';
  return [align, column.className].filter(Boolean).join(' ') || undefined;
}

function defaultCell<T>(row: T, key: string): ReactNode {
  const value = (row as Record<string, unknown>)[key];
  return value === null || value === undefined ? '' : String(value);
}

export function DataTable<T>({
  columns,
  rows,
  rowKey,
  pageSize = DEFAULT_PAGE_SIZE,
  emptyText = 'No data found',
  caption,
  isLoading = false,
  loadingText = 'Loading…',
  rowClassName,
  page: controlledPage,
  onPageChange,
  totalRows,
}: DataTableProps<T>) {
  const [localPage, setLocalPage] = useState(1);
  const isServerPaged = controlledPage !== undefined && totalRows !== undefined;
  const total = isServerPaged ? totalRows : rows.length;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  // Clamp: rows may shrink (a delete, a new search) under the current page.
  const page = Math.min(Math.max(1, controlledPage ?? localPage), pageCount);
  const start = (page - 1) * pageSize;
  const visible = isServerPaged ? rows : rows.slice(start, start + pageSize);
  const changePage = (next: number) => {
    if (onPageChange) onPageChange(next);
    if (controlledPage === undefined) setLocalPage(next);
  };

  return (
    <div className="data-table">
      <div className="data-table__scroll">
        <table className="data-table__table">
          {caption ? <caption className="visually-hidden">{caption}</caption> : null}
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.key} scope="col" className={cellClass(c)}>
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {isLoading ? (
              <tr className="data-table__message-row">
                <td colSpan={columns.length}>
                  <span className="data-table__loading">
                    <Spinner size={18} /> {loadingText}
                  </span>
                </td>
              </tr>
            ) : visible.length === 0 ? (
              <tr className="data-table__message-row">
                <td colSpan={columns.length}>{emptyText}</td>
              </tr>
            ) : (
              visible.map((row, i) => {
                const index = isServerPaged ? i : start + i;
                return (
                  <tr key={rowKey(row, index)} className={rowClassName?.(row)}>
                    {columns.map((c) => (
                      <td
                        key={c.key}
                        className={cellClass(c)}
                        data-label={c.label ?? (typeof c.header === 'string' ? c.header : '')}
                      >
                        {c.render ? c.render(row, index) : defaultCell(row, c.key)}
                      </td>
                    ))}
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>
      {isLoading ? null : (
        <Pagination page={page} pageCount={pageCount} onChange={changePage} label={caption && `${caption} pages`} />
      )}
    </div>
  );
}
