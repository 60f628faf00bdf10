import type { PriceRange } from '@flatship/proto';
import { nextRange } from './price-ranges';
import './price-ranges-editor.css';

export interface PriceRangesEditorProps {
  ranges: PriceRange[];
  maxWeight: number;
  onChange(ranges: PriceRange[]): void;
  disabled?: boolean;
  /** Makes the inputs' ids unique when several editors share a page. */
  idPrefix: string;
}

/** Text of a number input: an unreadable value shows as empty, and the check before saving names it. */
const shown = (value: number) => (Number.isFinite(value) ? String(value) : '');
const read = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/**
 * The weight-range price list of one service (spec doc 3 §4, §5): a row per
 * range (from, to, price), remove a row, add a range after the last one.
 * Whether the list is valid is decided by validatePriceRanges when saving.
 */
export function PriceRangesEditor({ ranges, maxWeight, onChange, disabled, idPrefix }: PriceRangesEditorProps) {
  const added = nextRange(ranges, maxWeight);
  const update = (index: number, field: keyof PriceRange, text: string) =>
    onChange(ranges.map((r, i) => (i === index ? { ...r, [field]: read(text) } : r)));

  return (
    <div className="price-ranges">
      <table className="price-ranges__table">
        <thead>
          <tr>
            <th scope="col">From (lb)</th>
            <th scope="col">To (lb)</th>
            <th scope="col">Price ($)</th>
            <th scope="col">
              <span className="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {ranges.map((range, i) => {
            const id = `${idPrefix}-range-${i}`;
            const row = `range ${i + 1}`;
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions in the list; their values change as typed
              <tr key={i}>
                <td>
                  <input
                    id={`${id}-from`}
                    className="input price-ranges__input"
                    type="number"
                    min={1}
                    max={maxWeight}
                    step={1}
                    aria-label={`From weight, ${row}`}
                    value={shown(range.fromWeight)}
                    disabled={disabled}
                    onChange={(e) => update(i, 'fromWeight', e.target.value)}
                  />
                </td>
                <td>
                  <input
                    id={`${id}-to`}
                    className="input price-ranges__input"
                    type="number"
                    min={1}
                    max={maxWeight}
                    step={1}
                    aria-label={`To weight, ${row}`}
                    value={shown(range.toWeight)}
                    disabled={disabled}
                    onChange={(e) => update(i, 'toWeight', e.target.value)}
                  />
                </td>
                <td>
                  <input
                    id={`${id}-price`}
                    className="input price-ranges__input"
                    type="number"
                    min={0}
                    step={0.01}
                    aria-label={`Price, ${row}`}
                    value={shown(range.price)}
                    disabled={disabled}
                    onChange={(e) => update(i, 'price', e.target.value)}
                  />
                </td>
                <td>
                  <button
                    type="button"
                    className="button button--ghost price-ranges__remove"
                    aria-label={`Remove ${row}`}
                    disabled={disabled}
                    onClick={() => onChange(ranges.filter((_, j) => j !== i))}
                  >
                    ×
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <button
        type="button"
        className="button button--ghost price-ranges__add"
        disabled={disabled || !added}
        title={added ? undefined : `The last range already ends at ${maxWeight} lb`}
        onClick={() => added && onChange([...ranges, added])}
      >
        Add range
      </button>
    </div>
  );
}
