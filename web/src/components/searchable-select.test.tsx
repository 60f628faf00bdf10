import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { SearchableSelect, type SelectOption } from './searchable-select';

const STATES: SelectOption[] = [
  { value: 'CA', label: 'California (CA)' },
  { value: 'CO', label: 'Colorado (CO)' },
  { value: 'TX', label: 'Texas (TX)' },
];

function Harness({
  options = STATES,
  onChange = () => {},
}: {
  options?: SelectOption[];
  onChange?: (v: string) => void;
}) {
  const [value, setValue] = useState<string | null>('TX');
  return (
    <>
      <label htmlFor="state">State</label>
      <SearchableSelect
        id="state"
        options={options}
        value={value}
        onChange={(v) => {
          setValue(v);
          onChange(v);
        }}
      />
    </>
  );
}

describe('SearchableSelect', () => {
  it('filters the options as the user types and says when nothing matches', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const input = screen.getByRole('combobox', { name: 'State' });
    expect(input).toHaveValue('Texas (TX)');

    await user.clear(input);
    await user.type(input, 'co');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Colorado (CO)']);

    await user.type(input, 'zz');
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    expect(screen.getByText('No options found')).toBeInTheDocument();
  });

  it('is driven by the keyboard: arrows move, Enter chooses, Escape closes and restores the choice', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const input = screen.getByRole('combobox', { name: 'State' });

    await user.click(input);
    expect(input).toHaveAttribute('aria-expanded', 'true');
    // Opens on the current choice (Texas, the last); Up moves to Colorado.
    await user.keyboard('{ArrowUp}');
    const active = input.getAttribute('aria-activedescendant');
    expect(active && document.getElementById(active)).toHaveTextContent('Colorado (CO)');
    await user.keyboard('{Enter}');
    expect(onChange).toHaveBeenCalledWith('CO');
    expect(input).toHaveValue('Colorado (CO)');
    expect(input).toHaveAttribute('aria-expanded', 'false');

    await user.type(input, 'xyz');
    expect(screen.getByRole('listbox')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(input).toHaveValue('Colorado (CO)');
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('replaces the shown choice when the user clicks in and types', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const input = screen.getByRole('combobox', { name: 'State' });
    await user.click(input);
    await user.keyboard('cal');
    expect(input).toHaveValue('cal');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['California (CA)']);
  });

  it('chooses with the mouse and lists options under their group headers', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(
      <Harness
        onChange={onChange}
        options={[
          { value: 'a', label: 'Alpha', group: 'First' },
          { value: 'b', label: 'Beta', group: 'Second' },
          { value: 'c', label: 'Gamma', group: 'First' },
        ]}
      />,
    );
    await user.click(screen.getByRole('combobox', { name: 'State' }));
    const first = screen.getByRole('group', { name: 'First' });
    expect(first).toHaveTextContent('AlphaGamma');
    expect(screen.getByRole('group', { name: 'Second' })).toHaveTextContent('Beta');

    await user.click(screen.getByRole('option', { name: 'Beta' }));
    expect(onChange).toHaveBeenCalledWith('b');
  });
});
