import { parseNumberCell } from '@flatship/order-files/rows';
import { observeElementRect, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyMenu, TABLE_MESSAGES } from '../../components/data-table';
import { toastShown } from '../../components/toast-slice';
import { selectRowNote, selectVisibleRowIds } from './bulk-address-check-selectors';
import {
  type BulkColumn,
  type BulkField,
  type ColumnGroup,
  cellText,
  GROUP_TITLES,
  MAIN_COLUMNS,
  ORDER_COLUMNS,
  rowProblems,
} from './bulk-columns';
import { selectBulkRow, selectBulkRowIds, selectShowsOrderInformation } from './bulk-order-selectors';
import { columnCopied, type RowChanges, rowDeleted, rowEdited } from './bulk-order-slice';

/** Every row has this height (editors included), so the window of rendered rows can be computed, not measured. */
export const BULK_ROW_HEIGHT = 40;
/** Rows rendered above and below the visible ones, so fast scrolling does not show blanks. */
const OVERSCAN = 10;
const NUMBER_WIDTH = 52;
/** The height assumed for a scroll box that has no layout yet, so a first screen of rows still renders. */
const UNMEASURED_HEIGHT = 600;

function observeRect(
  instance: Virtualizer<HTMLDivElement, Element>,
  callback: (rect: { width: number; height: number }) => void,
) {
  return observeElementRect(instance, (rect) =>
    callback(rect.height > 0 ? rect : { width: rect.width, height: UNMEASURED_HEIGHT }),
  );
}
const ACTIONS_WIDTH = 150;

interface RowProps {
  id: string;
  index: number;
  columns: BulkColumn[];
  /** Asks before the row goes (the table's confirmation dialog). */
  onDelete: (id: string, index: number) => void;
}

/**
 * One table row. It reads its own row from the store and keeps the edit draft to
 * itself, so typing in a cell re-renders this row and nothing else.
 */
const BulkTableRow = memo(function BulkTableRow({ id, index, columns, onDelete }: RowProps) {
  const dispatch = useAppDispatch();
  const row = useAppSelector((state) => selectBulkRow(state, id));
  const [draft, setDraft] = useState<Record<string, string> | null>(null);
  const problems = useMemo(() => (row ? rowProblems(row) : null), [row]);
  const note = useAppSelector((state) => selectRowNote(state, id));
  const noteText = note
    ? [
        note.check?.verdict === 'corrected' && note.check.address ? 'The address check suggests a correction' : null,
        note.check?.verdict === 'undeliverable'
          ? `USPS cannot deliver to this address. ${note.check.message ?? ''}`
          : null,
        ...note.zipFlags.map((f) => f.message),
      ]
        .filter(Boolean)
        .join('; ')
    : null;
  const rowRef = useRef<HTMLTableRowElement>(null);
  // Where focus goes after the next render: the first input when an edit starts, the Edit button after one.
  const focusNext = useRef<string | null>(null);

  useEffect(() => {
    const selector = focusNext.current;
    if (!selector) return;
    focusNext.current = null;
    rowRef.current?.querySelector<HTMLElement>(selector)?.focus();
  });

  if (!row) return null;
  const isEditing = draft !== null;
  const problemList = problems && problems.size > 0 ? [...problems.values()] : null;
  const showFirstProblem = () => {
    const cell = rowRef.current?.querySelector<HTMLElement>('.bulk-table__cell--invalid');
    cell?.scrollIntoView?.({ block: 'nearest', inline: 'center' });
    rowRef.current?.querySelector<HTMLElement>('[data-action="edit"]')?.focus({ preventScroll: true });
  };

  const startEdit = () => {
    setDraft(Object.fromEntries(columns.map((c) => [c.key, cellText(row[c.key])])));
    focusNext.current = 'input';
  };
  const finishEdit = () => {
    setDraft(null);
    focusNext.current = '[data-action="edit"]';
  };
  const save = () => {
    if (!draft) return;
    const changes: RowChanges = {};
    for (const column of columns) {
      const next = (draft[column.key] ?? '').trim();
      if (next === cellText(row[column.key]).trim()) continue;
      // Spec doc 2 §5: edited numbers are parsed; what is not a number becomes null (and is highlighted).
      changes[column.key] = column.isNumber ? parseNumberCell(next) : next;
    }
    if (Object.keys(changes).length > 0) dispatch(rowEdited({ id, changes }));
    finishEdit();
  };
  const onKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      finishEdit();
    }
  };

  return (
    <tr
      ref={rowRef}
      className={isEditing ? 'bulk-table__row bulk-table__row--editing' : 'bulk-table__row'}
      data-row-id={id}
      aria-rowindex={index + 3}
    >
      <th
        scope="row"
        className={`bulk-table__number${problemList ? ' bulk-table__number--invalid' : ''}${noteText ? ' bulk-table__number--doubt' : ''}`}
        title={noteText ?? undefined}
      >
        {problemList ? (
          // The bad cell may be scrolled out of view to the side: the row number says so and leads to it.
          <button
            type="button"
            className="bulk-table__flag"
            title={problemList.join('\n')}
            aria-label={`Row ${index + 1} has problems: ${problemList.join('; ')}. Show the first one`}
            onClick={showFirstProblem}
          >
            {index + 1}
          </button>
        ) : (
          index + 1
        )}
        {noteText ? <span className="visually-hidden"> (needs a look: {noteText})</span> : null}
      </th>
      {columns.map((column) => {
        const problem = problems?.get(column.key);
        const isInvalid = problem !== undefined;
        return (
          <td
            key={column.key}
            className={isInvalid ? 'bulk-table__cell bulk-table__cell--invalid' : 'bulk-table__cell'}
            data-field={column.key}
            title={isEditing ? undefined : problem}
          >
            {isEditing ? (
              <input
                className="bulk-table__input"
                aria-label={`${column.label}, row ${index + 1}`}
                aria-invalid={isInvalid || undefined}
                inputMode={column.isNumber ? 'decimal' : undefined}
                value={draft[column.key] ?? ''}
                onChange={(e) => {
                  const { value } = e.target;
                  setDraft((d) => (d ? { ...d, [column.key]: value } : d));
                }}
                onKeyDown={onKey}
              />
            ) : (
              <>
                {cellText(row[column.key])}
                {isInvalid ? <span className="visually-hidden"> ({problem})</span> : null}
              </>
            )}
          </td>
        );
      })}
      <td className="bulk-table__actions">
        {isEditing ? (
          <>
            <button type="button" className="bulk-table__action bulk-table__action--primary" onClick={save}>
              Save
            </button>
            <button type="button" className="bulk-table__action" onClick={finishEdit}>
              Cancel
            </button>
          </>
        ) : (
          <>
            <button
              type="button"
              className="bulk-table__action"
              data-action="edit"
              aria-label={`Edit row ${index + 1}`}
              onClick={startEdit}
            >
              Edit
            </button>
            <button
              type="button"
              className="bulk-table__action bulk-table__action--danger"
              data-action="delete"
              aria-label={`Delete row ${index + 1}`}
              onClick={() => onDelete(id, index)}
            >
              Delete
            </button>
          </>
        )}
      </td>
    </tr>
  );
});

function groupSpans(columns: BulkColumn[]): { group: ColumnGroup; span: number }[] {
  const spans: { group: ColumnGroup; span: number }[] = [];
  for (const column of columns) {
    const last = spans.at(-1);
    if (last && last.group === column.group) last.span += 1;
    else spans.push({ group: column.group, span: 1 });
  }
  return spans;
}

/** The bulk rows: grouped headers, "Copy from:" menus, and only the rows in view rendered. */
export function BulkTable() {
  const dispatch = useAppDispatch();
  const allRowIds = useAppSelector(selectBulkRowIds);
  // The address check may narrow the table to the rows that need a look; rows keep their numbers in the file.
  const rowIds = useAppSelector(selectVisibleRowIds);
  const positionOf = useMemo(() => new Map(allRowIds.map((id, i) => [id, i])), [allRowIds]);
  const showsOrderInformation = useAppSelector(selectShowsOrderInformation);
  const columns = useMemo(
    () => (showsOrderInformation ? [...ORDER_COLUMNS, ...MAIN_COLUMNS] : MAIN_COLUMNS),
    [showsOrderInformation],
  );
  const scrollRef = useRef<HTMLDivElement>(null);
  const [toDelete, setToDelete] = useState<{ id: string; index: number } | null>(null);
  // The position of the row just deleted: focus goes to the row that took its place (or the one before it).
  const focusAfterDelete = useRef<number | null>(null);
  const askDelete = useCallback((id: string, index: number) => setToDelete({ id, index }), []);
  const confirmDelete = () => {
    if (!toDelete) return;
    dispatch(rowDeleted(toDelete.id));
    dispatch(toastShown({ kind: 'success', message: TABLE_MESSAGES.deleted }));
    focusAfterDelete.current = toDelete.index;
    setToDelete(null);
  };

  // Runs after the dialog has closed (and failed to give focus back to the button that went with the row).
  useEffect(() => {
    const index = focusAfterDelete.current;
    if (index === null) return;
    focusAfterDelete.current = null;
    const nextId = rowIds[index] ?? rowIds[index - 1];
    const button = nextId
      ? scrollRef.current?.querySelector<HTMLElement>(`tr[data-row-id="${CSS.escape(nextId)}"] [data-action="delete"]`)
      : null;
    (button ?? scrollRef.current)?.focus();
  }, [rowIds]);

  const getItemKey = useCallback((index: number) => rowIds[index] ?? index, [rowIds]);
  const virtualizer = useVirtualizer({
    count: rowIds.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => BULK_ROW_HEIGHT,
    overscan: OVERSCAN,
    getItemKey,
    observeElementRect: observeRect,
  });
  const items = virtualizer.getVirtualItems();
  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom = Math.max(0, virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0));
  const width = NUMBER_WIDTH + ACTIONS_WIDTH + columns.reduce((sum, c) => sum + c.width, 0);
  const spanAll = columns.length + 2;

  const copySources = (target: BulkColumn) =>
    columns.filter((c) => c.key !== target.key).map((c) => ({ key: c.key, text: c.label }));
  const copy = (target: BulkField, source: string) => dispatch(columnCopied({ target, source: source as BulkField }));

  return (
    <div className="bulk-table__scroll" ref={scrollRef} tabIndex={-1}>
      <table className="bulk-table" style={{ width }} aria-label="Order rows" aria-rowcount={rowIds.length + 2}>
        <colgroup>
          <col style={{ width: NUMBER_WIDTH }} />
          {columns.map((c) => (
            <col key={c.key} style={{ width: c.width }} />
          ))}
          <col style={{ width: ACTIONS_WIDTH }} />
        </colgroup>
        <thead>
          <tr className="bulk-table__groups" aria-rowindex={1}>
            <td className="bulk-table__number" />
            {groupSpans(columns).map(({ group, span }) => (
              <th
                key={group}
                scope="colgroup"
                colSpan={span}
                className={`bulk-table__group bulk-table__group--${group}`}
              >
                {GROUP_TITLES[group]}
              </th>
            ))}
            <td className="bulk-table__actions" />
          </tr>
          <tr className="bulk-table__headers" aria-rowindex={2}>
            <th scope="col" className="bulk-table__number">
              #
            </th>
            {columns.map((c) => (
              <th key={c.key} scope="col" className="bulk-table__header">
                <span className="bulk-table__header-inner">
                  <span title={c.label}>{c.header}</span>
                  <CopyMenu target={c.label} sources={copySources(c)} onPick={(source) => copy(c.key, source)} />
                </span>
              </th>
            ))}
            <th scope="col" className="bulk-table__actions">
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {paddingTop > 0 ? (
            <tr className="bulk-table__spacer" style={{ height: paddingTop }}>
              <td colSpan={spanAll} />
            </tr>
          ) : null}
          {items.map((item) => {
            const id = rowIds[item.index];
            return id ? (
              <BulkTableRow
                key={id}
                id={id}
                index={positionOf.get(id) ?? item.index}
                columns={columns}
                onDelete={askDelete}
              />
            ) : null;
          })}
          {paddingBottom > 0 ? (
            <tr className="bulk-table__spacer" style={{ height: paddingBottom }}>
              <td colSpan={spanAll} />
            </tr>
          ) : null}
        </tbody>
      </table>
      {/* Spec doc 1 §2 (shared table behaviour): the table's delete confirmation, with its texts. */}
      <ConfirmDialog
        isOpen={toDelete !== null}
        title={toDelete ? `Delete row ${toDelete.index + 1}` : 'Delete row'}
        text={TABLE_MESSAGES.confirmDelete}
        onCancel={() => setToDelete(null)}
        onConfirm={confirmDelete}
      />
    </div>
  );
}
