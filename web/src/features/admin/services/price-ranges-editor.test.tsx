import type { PriceRange } from '@flatship/proto';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { PriceRangesEditor } from './price-ranges-editor';

function Harness({
  initial,
  maxWeight,
  onChange,
}: {
  initial: PriceRange[];
  maxWeight: number;
  onChange(r: PriceRange[]): void;
}) {
  const [ranges, setRanges] = useState(initial);
  return (
    <PriceRangesEditor
      ranges={ranges}
      maxWeight={maxWeight}
      idPrefix="svc-1"
      onChange={(next) => {
        setRanges(next);
        onChange(next);
      }}
    />
  );
}

describe('PriceRangesEditor', () => {
  it('edits a range, removes one, and adds one after the highest toWeight', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(
      <Harness
        initial={[
          { fromWeight: 1, toWeight: 10, price: 5 },
          { fromWeight: 10, toWeight: 70, price: 9 },
        ]}
        maxWeight={70}
        onChange={onChange}
      />,
    );
    expect(screen.getByLabelText('From weight, range 1')).toHaveAttribute('id', 'svc-1-range-0-from');
    expect(screen.getByRole('button', { name: 'Add range' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Remove range 2' }));
    expect(onChange).toHaveBeenLastCalledWith([{ fromWeight: 1, toWeight: 10, price: 5 }]);

    await user.click(screen.getByRole('button', { name: 'Add range' }));
    expect(onChange).toHaveBeenLastCalledWith([
      { fromWeight: 1, toWeight: 10, price: 5 },
      { fromWeight: 10, toWeight: 70, price: 5 },
    ]);

    const price = screen.getByLabelText('Price, range 2');
    await user.clear(price);
    expect(onChange).toHaveBeenLastCalledWith([
      { fromWeight: 1, toWeight: 10, price: 5 },
      { fromWeight: 10, toWeight: 70, price: Number.NaN },
    ]);
    await user.type(price, '7.25');
    expect(onChange).toHaveBeenLastCalledWith([
      { fromWeight: 1, toWeight: 10, price: 5 },
      { fromWeight: 10, toWeight: 70, price: 7.25 },
    ]);
  });

  it('disables every control when asked', () => {
    render(
      <PriceRangesEditor
        ranges={[{ fromWeight: 1, toWeight: 5, price: 2 }]}
        maxWeight={70}
        idPrefix="svc-2"
        disabled
        onChange={() => {}}
      />,
    );
    for (const control of [...screen.getAllByRole('spinbutton'), ...screen.getAllByRole('button')]) {
      expect(control).toBeDisabled();
    }
  });
});
