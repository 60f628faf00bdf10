import {
  type KeyboardEvent,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { ReactReduxContext } from 'react-redux';
import { ConfirmDialog } from './confirm-dialog';
import { failureText } from './data-table-requests';
import { type EditRule, parseCell, validateCell } from './data-table-validation';
import { Pagination } from './pagination';
import { Spinner } from './spinner';
import { toastShown } from './toast-slice';
import './components.css';
import './data-table.css';

/** Spec doc 1 §9: tables show 7 rows per page unless a screen says otherwise. */
export const DEFAULT_PAGE_SIZE = 7;

/** Spec doc 1 §4 / §8: the table's own outcome texts. */
export const TABLE_MESSAGES = {
  updated: 'Row updated successfully!',
  updateFailed: 'Failed to update the row.',
  deleted: 'Row deleted successfully!',
  deleteFailed: 'Failed to delete the row.',
  confirmDelete: 'Are you sure you want to delete this item?',
} as const;

export interface Column<T> extends EditRule {
  key: string;
  header: ReactNode;
  /** Text naming the cell in the compact (card) layout and in messages; defaults to the header when it is a string. */
  label?: string;
  /** Cell content; defaults to `row[key]`. `index` is the row's position in `rows`. */
  render?: (row: T, index: number) => ReactNode;
  className?: string;
  align?: 'left' | 'center' | 'right';
  /** The cell turns into an input while its row is edited. */
  editable?: boolean;
  /** The text an edit starts from; defaults to `row[key]` as text. */
  editValue?: (row: T) => string;
  /** An editable column offers "Copy from:" when the table has `onBulkColumnCopy`; false opts out. */
  copyable?: boolean;
}

export interface TableNotice {
  kind: 'success' | 'error';
  message: string;
  detail?: string;
}

/** Values of the edited cells that changed: numbers for number columns (null when blanked), trimmed text otherwise. */
export type RowChanges = Record<string, string | number | null>;

/**
 * A save or delete callback may return (or resolve with) a message to show
 * under the outcome toast, e.g. "Address updated successfully!"; anything else
 * is ignored. Throwing (or rejecting) marks the action failed; the error's
 * message is shown when it came from the server.
 */
type RowAction<Args extends unknown[]> = (...args: Args) => unknown;

const detailOf = (result: unknown): string | undefined => (typeof result === 'string' && result ? result : undefined);

export interface DataTableProps<T> {
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T, index: number) => string;
  pageSize?: number;
  emptyText?: ReactNode;
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
  /** Turns on inline edit of the `editable` columns: Edit, then Save or Cancel. */
  onSave?: RowAction<[row: T, changes: RowChanges]>;
  /** Turns on Delete, asked through a confirmation dialog. */
  onDelete?: RowAction<[row: T]>;
  /**
   * Turns on the "Copy from:" header menu of editable columns. The owner copies
   * `sourceKey` into `targetKey` for every row itself (one reducer step for the
   * whole list; `copyColumnValues` does it for plain arrays), so the table stays
   * cheap however many rows there are.
   */
  onBulkColumnCopy?: (targetKey: string, sourceKey: string) => void;
  /** Where outcome messages go; defaults to the app's toasts when a store is present. */
  onNotify?: (notice: TableNotice) => void;
}

interface EditState {
  key: string;
  draft: Record<string, string>;
  errors: Record<string, string>;
}

function cellClass<T>(column: Column<T>): string | undefined {
  const align = column.align && column.align !== 'left' ? `data-table__cell--${column.align}` : '';
  return [align, column.className].filter(Boolean).join(' ') || undefined;
}

function rawValue<T>(row: T, key: string): unknown {
  return (row as Record<string, unknown>)[key];
}

function defaultCell<T>(row: T, key: string): ReactNode {
  const value = rawValue(row, key);
  return value === null || value === undefined ? '' : String(value);
}

/** The words naming a column in messages and input labels. */
export function columnText<T>(column: Column<T>): string {
  return column.label ?? (typeof column.header === 'string' ? column.header : column.key);
}

function editText<T>(row: T, column: Column<T>): string {
  if (column.editValue) return column.editValue(row);
  const value = rawValue(row, column.key);
  return value === null || value === undefined ? '' : String(value);
}

function useNotify(onNotify: DataTableProps<unknown>['onNotify']) {
  const redux = useContext(ReactReduxContext);
  return useCallback(
    (notice: TableNotice) => {
      if (onNotify) onNotify(notice);
      else redux?.store.dispatch(toastShown({ message: notice.message, detail: notice.detail, kind: notice.kind }));
    },
    [onNotify, redux],
  );
}

export interface CopyMenuProps {
  target: string;
  sources: { key: string; text: string }[];
  onPick: (sourceKey: string) => void;
}

/** The "Copy from:" menu of one column header. */
export function CopyMenu({ target, sources, onPick }: CopyMenuProps) {
  const [isOpen, setIsOpen] = useState(false);
  const wrapper = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!isOpen) return;
    wrapper.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
    const onPointer = (event: MouseEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setIsOpen(false);
    };
    document.addEventListener('mousedown', onPointer);
    return () => document.removeEventListener('mousedown', onPointer);
  }, [isOpen]);

  const close = () => {
    setIsOpen(false);
    toggle.current?.focus();
  };

  const onMenuKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(wrapper.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      items[(at + step + items.length) % items.length]?.focus();
    } else if (event.key === 'Tab') {
      setIsOpen(false);
    }
  };

  if (sources.length === 0) return null;
  return (
    <div className="copy-menu" ref={wrapper}>
      <button
        ref={toggle}
        type="button"
        className="copy-menu__toggle"
        aria-haspopup="menu"
        aria-expanded={isOpen}
        aria-controls={isOpen ? menuId : undefined}
        aria-label={`Copy into ${target} from another column`}
        title="Copy from another column"
        onClick={() => setIsOpen((open) => !open)}
      >
        <svg viewBox="0 0 24 24" width="14" height="14" aria-hidden="true" focusable="false">
          <path d="M9 9h10v10H9zM5 15V5h10" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
        </svg>
      </button>
      {isOpen ? (
        <div
          id={menuId}
          className="copy-menu__list"
          role="menu"
          aria-label="Copy from:"
          tabIndex={-1}
          onKeyDown={onMenuKey}
        >
          <span className="copy-menu__title" aria-hidden="true">
            Copy from:
          </span>
          {sources.map((source) => (
            <button
              key={source.key}
              type="button"
              role="menuitem"
              className="copy-menu__item"
              onClick={() => {
                close();
                onPick(source.key);
              }}
            >
              {source.text}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
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
  onSave,
  onDelete,
  onBulkColumnCopy,
  onNotify,
}: DataTableProps<T>) {
  const [localPage, setLocalPage] = useState(1);
  const [editing, setEditing] = useState<EditState | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const [toDelete, setToDelete] = useState<T | null>(null);
  const [isDeleting, setIsDeleting] = useState(false);
  const notify = useNotify(onNotify);
  const tableId = useId();
  const container = useRef<HTMLDivElement>(null);
  // Where focus goes after the next render: an input to start an edit, the Edit button after one.
  const focusNext = useRef<string | null>(null);

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

  const editableColumns = columns.filter((c) => c.editable);
  const canEdit = Boolean(onSave) && editableColumns.length > 0;
  const hasActions = canEdit || Boolean(onDelete);
  const columnCount = columns.length + (hasActions ? 1 : 0);

  useLayoutEffect(() => {
    const selector = focusNext.current;
    if (!selector) return;
    focusNext.current = null;
    container.current?.querySelector<HTMLElement>(selector)?.focus();
  });

  const cssKey = (key: string) => CSS.escape(key);

  const startEdit = (row: T, key: string) => {
    const draft: Record<string, string> = {};
    for (const column of editableColumns) draft[column.key] = editText(row, column);
    setEditing({ key, draft, errors: {} });
    focusNext.current = `[data-row-key="${cssKey(key)}"] [data-edit-input]`;
  };

  const finishEdit = (key: string) => {
    setEditing(null);
    focusNext.current = `[data-row-key="${cssKey(key)}"] [data-action="edit"]`;
  };

  const changeDraft = (columnKey: string, value: string) => {
    setEditing((current) => {
      if (!current) return current;
      const { [columnKey]: _fixed, ...errors } = current.errors;
      return { ...current, draft: { ...current.draft, [columnKey]: value }, errors };
    });
  };

  const save = async (row: T) => {
    if (!editing || !onSave || isSaving) return;
    const { key, draft } = editing;
    const errors: Record<string, string> = {};
    for (const column of editableColumns) {
      const problem = validateCell(draft[column.key] ?? '', columnText(column), column);
      if (problem) errors[column.key] = problem;
    }
    const firstInvalid = editableColumns.find((c) => errors[c.key]);
    if (firstInvalid) {
      setEditing({ ...editing, errors });
      focusNext.current = `[data-row-key="${cssKey(key)}"] [data-edit-input="${cssKey(firstInvalid.key)}"]`;
      return;
    }
    const changes: RowChanges = {};
    for (const column of editableColumns) {
      const next = draft[column.key] ?? '';
      if (next.trim() !== editText(row, column).trim()) changes[column.key] = parseCell(next, column.type);
    }
    // Nothing changed: leave edit mode without bothering the server.
    if (Object.keys(changes).length === 0) {
      finishEdit(key);
      return;
    }
    setIsSaving(true);
    try {
      const detail = detailOf(await onSave(row, changes));
      notify({ kind: 'success', message: TABLE_MESSAGES.updated, detail });
      finishEdit(key);
    } catch (error) {
      notify({ kind: 'error', message: TABLE_MESSAGES.updateFailed, detail: failureText(error) });
      focusNext.current = `[data-row-key="${cssKey(key)}"] [data-edit-input]`;
    } finally {
      setIsSaving(false);
    }
  };

  const confirmDelete = async () => {
    if (toDelete === null || !onDelete || isDeleting) return;
    setIsDeleting(true);
    try {
      const detail = detailOf(await onDelete(toDelete));
      notify({ kind: 'success', message: TABLE_MESSAGES.deleted, detail });
      if (editing) setEditing(null);
      // The row and its buttons are gone: keep focus in the table rather than on the page body.
      focusNext.current = '.data-table__scroll';
    } catch (error) {
      notify({ kind: 'error', message: TABLE_MESSAGES.deleteFailed, detail: failureText(error) });
    } finally {
      setIsDeleting(false);
      setToDelete(null);
    }
  };

  const onEditorKey = (event: KeyboardEvent<HTMLElement>, row: T) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void save(row);
    } else if (event.key === 'Escape' && editing) {
      event.preventDefault();
      event.stopPropagation();
      finishEdit(editing.key);
    }
  };

  const copySources = (target: Column<T>) =>
    editableColumns.filter((c) => c.key !== target.key).map((c) => ({ key: c.key, text: columnText(c) }));

  const renderEditor = (row: T, column: Column<T>, edit: EditState) => {
    const value = edit.draft[column.key] ?? '';
    const error = edit.errors[column.key];
    const errorId = `${tableId}-${edit.key}-${column.key}-error`;
    const common = {
      className: `input data-table__input${column.type === 'select' ? ' data-table__input--select' : ''}`,
      'aria-label': columnText(column),
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? errorId : undefined,
      'aria-required': column.required || undefined,
      'data-edit-input': column.key,
      disabled: isSaving,
      onKeyDown: (event: KeyboardEvent<HTMLElement>) => onEditorKey(event, row),
    };
    return (
      <div className="data-table__editor">
        {column.type === 'select' ? (
          <select {...common} value={value} onChange={(e) => changeDraft(column.key, e.target.value)}>
            {value === '' || !column.required ? <option value="">Select…</option> : null}
            {(column.options ?? []).map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        ) : (
          <input
            {...common}
            {...(column.type === 'number' && column.step !== undefined
              ? { type: 'number', step: column.step, min: column.min, max: column.max }
              : { type: column.type === 'phone' ? 'tel' : 'text' })}
            inputMode={column.type === 'number' ? 'decimal' : undefined}
            value={value}
            onChange={(e) => changeDraft(column.key, e.target.value)}
          />
        )}
        {error ? (
          <span id={errorId} className="data-table__error">
            {error}
          </span>
        ) : null}
      </div>
    );
  };

  const renderActions = (row: T, key: string, isEditingRow: boolean) => {
    if (isEditingRow) {
      return (
        <div className="data-table__actions">
          <button
            type="button"
            className="data-table__action data-table__action--primary"
            data-action="save"
            onClick={() => void save(row)}
            disabled={isSaving}
            aria-busy={isSaving}
          >
            {isSaving ? 'Saving…' : 'Save'}
          </button>
          <button
            type="button"
            className="data-table__action"
            data-action="cancel"
            onClick={() => finishEdit(key)}
            disabled={isSaving}
          >
            Cancel
          </button>
        </div>
      );
    }
    return (
      <div className="data-table__actions">
        {canEdit ? (
          <button
            type="button"
            className="data-table__action"
            data-action="edit"
            onClick={() => startEdit(row, key)}
            disabled={isSaving}
          >
            Edit
          </button>
        ) : null}
        {onDelete ? (
          <button
            type="button"
            className="data-table__action data-table__action--danger"
            data-action="delete"
            onClick={() => setToDelete(row)}
            disabled={isSaving}
          >
            Delete
          </button>
        ) : null}
      </div>
    );
  };

  return (
    <div className={`data-table${hasActions ? ' data-table--editable' : ''}`} ref={container}>
      <div className="data-table__scroll" tabIndex={-1}>
        <table className="data-table__table">
          {caption ? <caption className="visually-hidden">{caption}</caption> : null}
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.key} scope="col" className={cellClass(c)}>
                  {onBulkColumnCopy && c.editable && c.copyable !== false ? (
                    <span className="data-table__header">
                      {c.header}
                      <CopyMenu
                        target={columnText(c)}
                        sources={copySources(c)}
                        onPick={(source) => onBulkColumnCopy(c.key, source)}
                      />
                    </span>
                  ) : (
                    c.header
                  )}
                </th>
              ))}
              {hasActions ? (
                <th scope="col" className="data-table__actions-cell">
                  Actions
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {isLoading ? (
              <tr className="data-table__message-row">
                <td colSpan={columnCount}>
                  <span className="data-table__loading">
                    <Spinner size={18} /> {loadingText}
                  </span>
                </td>
              </tr>
            ) : visible.length === 0 ? (
              <tr className="data-table__message-row">
                <td colSpan={columnCount}>{emptyText}</td>
              </tr>
            ) : (
              visible.map((row, i) => {
                const index = isServerPaged ? i : start + i;
                const key = rowKey(row, index);
                const edit = editing?.key === key ? editing : null;
                const className = [rowClassName?.(row), edit ? 'data-table__row--editing' : '']
                  .filter(Boolean)
                  .join(' ');
                return (
                  <tr key={key} className={className || undefined} data-row-key={key}>
                    {columns.map((c) => (
                      <td
                        key={c.key}
                        className={cellClass(c)}
                        data-label={c.label ?? (typeof c.header === 'string' ? c.header : '')}
                      >
                        {edit && c.editable
                          ? renderEditor(row, c, edit)
                          : c.render
                            ? c.render(row, index)
                            : defaultCell(row, c.key)}
                      </td>
                    ))}
                    {hasActions ? (
                      <td className="data-table__actions-cell" data-label="Actions">
                        {renderActions(row, key, edit !== null)}
                      </td>
                    ) : null}
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
      {onDelete ? (
        <ConfirmDialog
          isOpen={toDelete !== null}
          title="Delete item"
          text={TABLE_MESSAGES.confirmDelete}
          onCancel={() => setToDelete(null)}
          onConfirm={() => void confirmDelete()}
          isBusy={isDeleting}
        />
      ) : null}
    </div>
  );
}
