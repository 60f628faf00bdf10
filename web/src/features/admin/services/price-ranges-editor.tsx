import type { PriceRange } from '@flatship/proto';
import { useEffect, useId, useRef, useState } from 'react';
import {
  checkPriceRanges,
  formatPrice,
  nextPriceRange,
  PRICE_MIN,
  PRICE_STEP,
  type PriceRangeDraft,
} from './price-ranges';
import './price-ranges-editor.css';

interface PriceRangesEditorProps {
  /** The saved list; the editor starts over from it whenever it changes (e.g. after a save). */
  prices: readonly PriceRange[];
  maxWeight: number;
  /** Names the service in labels, so several editors on a page stay distinguishable. */
  serviceName: string;
  isSaving?: boolean;
  /** Called with a list that passed the checks of spec doc 3 §5. */
  onSave: (prices: PriceRange[]) => void;
}

interface DraftRow extends PriceRangeDraft {
  key: number;
}

const WEIGHT_FIELDS = [
  { field: 'fromWeight', label: 'from weight' },
  { field: 'toWeight', label: 'to weight' },
] as const;

let nextKey = 1;
const toRows = (prices: readonly PriceRange[]): DraftRow[] =>
  prices.map((p) => ({
    key: nextKey++,
    fromWeight: String(p.fromWeight),
    toWeight: String(p.toWeight),
    price: formatPrice(p.price),
  }));

/**
 * A service's weight-range price list: edit bounds and prices, add a range
 * after the highest one, remove ranges, and save once the list is continuous
 * from 1 to the service's maximum weight. Used for per-user and default services.
 */
export function PriceRangesEditor({
  prices,
  maxWeight,
  serviceName,
  isSaving = false,
  onSave,
}: PriceRangesEditorProps) {
  const [rows, setRows] = useState<DraftRow[]>(() => toRows(prices));
  const [error, setError] = useState<{ message: string; row: number } | null>(null);
  const errorId = useId();

  // What the server holds replaces the drafts when it changes (a save, a sync); a new array with the same
  // ranges (a parent re-rendering) keeps what is being typed, and the inputs with it.
  const pricesKey = JSON.stringify(prices);
  const shownKey = useRef(pricesKey);
  useEffect(() => {
    if (shownKey.current === pricesKey) return;
    shownKey.current = pricesKey;
    setRows(toRows(JSON.parse(pricesKey) as PriceRange[]));
    setError(null);
  }, [pricesKey]);

  const next = nextPriceRange(rows, maxWeight);

  const edit = (key: number, field: keyof PriceRangeDraft, value: string) => {
    setRows((current) => current.map((row) => (row.key === key ? { ...row, [field]: value } : row)));
    setError(null);
  };

  const add = () => {
    if (!next) return;
    setRows((current) => [...current, { ...next, key: nextKey++, price: formatPrice(next.price) }]);
    setError(null);
  };

  const remove = (key: number) => {
    setRows((current) => current.filter((row) => row.key !== key));
    setError(null);
  };

  const save = () => {
    const check = checkPriceRanges(rows, maxWeight);
    if (!check.ok) {
      setError({ message: check.message, row: check.row });
      return;
    }
    setError(null);
    onSave(check.prices);
  };

  return (
    <div className="price-ranges">
      <table className="price-ranges__table">
        <caption className="visually-hidden">Price ranges of {serviceName}</caption>
        <thead>
          <tr>
            <th scope="col">From (lb)</th>
            <th scope="col">To (lb)</th>
            <th scope="col">Price ($)</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => {
            const isBad = error?.row === index;
            const n = index + 1;
            return (
              <tr key={row.key} className={isBad ? 'price-ranges__row--invalid' : undefined}>
                {WEIGHT_FIELDS.map(({ field, label }) => (
                  <td key={field}>
                    <input
                      className="input price-ranges__input"
                      type="number"
                      min={1}
                      max={maxWeight}
                      step={1}
                      aria-label={`Range ${n} ${label}`}
                      aria-invalid={isBad || undefined}
                      aria-describedby={isBad ? errorId : undefined}
                      value={row[field]}
                      onChange={(e) => edit(row.key, field, e.target.value)}
                    />
                  </td>
                ))}
                <td>
                  <input
                    className="input price-ranges__input"
                    type="number"
                    min={PRICE_MIN}
                    step={PRICE_STEP}
                    aria-label={`Range ${n} price`}
                    aria-invalid={isBad || undefined}
                    aria-describedby={isBad ? errorId : undefined}
                    value={row.price}
                    onChange={(e) => edit(row.key, 'price', e.target.value)}
                    onBlur={(e) => {
                      // Pads 4.5 to 4.50; a price with more decimals stays as typed for the check to name.
                      if (/^\d+(\.\d{0,2})?$/.test(e.target.value.trim())) {
                        edit(row.key, 'price', formatPrice(e.target.value));
                      }
                    }}
                  />
                </td>
                <td>
                  <button
                    type="button"
                    className="button button--ghost price-ranges__remove"
                    aria-label={`Remove range ${n}`}
                    onClick={() => remove(row.key)}
                    disabled={isSaving}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {error ? (
        <p id={errorId} className="alert alert--error price-ranges__error" role="alert">
          {error.message}
        </p>
      ) : null}
      <div className="price-ranges__actions">
        <button type="button" className="button button--ghost" onClick={add} disabled={!next || isSaving}>
          Add range
        </button>
        {next ? null : <span className="price-ranges__hint">Ranges reach the maximum weight of {maxWeight} lb.</span>}
        <button
          type="button"
          className="button button--primary"
          onClick={save}
          disabled={isSaving}
          aria-busy={isSaving}
        >
          {isSaving ? 'Saving…' : 'Save prices'}
        </button>
      </div>
    </div>
  );
}
