import { US_STATES } from '@flatship/proto';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Provider } from 'react-redux';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../app/http';
import { createAppStore } from '../app/store';
import { type Column, DataTable, type DataTableProps, type RowChanges, type TableNotice } from './data-table';
import { copyColumnValues, parseCell, validateCell } from './data-table-validation';
import { ToastArea } from './toast-area';

interface Parcel {
  id: string;
  name: string;
  phone: string;
  weight: number | null;
  state: string;
  note: string;
}

const columns: Column<Parcel>[] = [
  { key: 'name', header: 'Name', editable: true, required: true },
  { key: 'phone', header: 'Phone', editable: true, type: 'phone' },
  { key: 'weight', header: 'Weight', editable: true, type: 'number', required: true, min: 1, max: 70 },
  {
    key: 'state',
    header: 'State',
    editable: true,
    type: 'select',
    required: true,
    options: US_STATES.map(([code]) => ({ value: code, label: code })),
  },
  { key: 'note', header: 'Note', editable: true },
  { key: 'id', header: 'Id' },
];

const parcel = (i: number, overrides: Partial<Parcel> = {}): Parcel => ({
  id: `p-${i}`,
  name: `Parcel ${i}`,
  phone: '555-0100',
  weight: 2,
  state: 'CA',
  note: `note ${i}`,
  ...overrides,
});

type Props = Partial<DataTableProps<Parcel>>;

function setup(props: Props = {}, rows: Parcel[] = [parcel(1), parcel(2)]) {
  const notices: TableNotice[] = [];
  const user = userEvent.setup();
  render(
    <DataTable
      caption="Parcels"
      columns={columns}
      rows={rows}
      rowKey={(r) => r.id}
      onNotify={(n) => notices.push(n)}
      {...props}
    />,
  );
  return { user, notices };
}

function row(name: string) {
  const cell = screen.getByText(name);
  return within(cell.closest('tr') as HTMLElement);
}
const editingRow = () => within(document.querySelector('.data-table__row--editing') as HTMLElement);

describe('editable DataTable: validation', () => {
  it('gives each rule its exact message', () => {
    expect(validateCell(' ', 'Name', { required: true })).toBe('Name is required');
    expect(validateCell('abc', 'Weight', { type: 'number' })).toBe('Weight must be a number');
    expect(validateCell('0', 'Weight', { type: 'number', min: 1 })).toBe('Weight must be greater than 1');
    expect(validateCell('71', 'Weight', { type: 'number', max: 70 })).toBe('Weight must be less than 70');
    // The bounds are what the texts say: 1 is not greater than 1, and 70 is not less than 70.
    expect(validateCell('1', 'Weight', { type: 'number', min: 1 })).toBe('Weight must be greater than 1');
    expect(validateCell('70', 'Weight', { type: 'number', max: 70 })).toBe('Weight must be less than 70');
    expect(validateCell('69.99', 'Weight', { type: 'number', min: 1, max: 70 })).toBeNull();
    expect(validateCell('1.01', 'Weight', { type: 'number', min: 1, max: 70 })).toBeNull();
    expect(validateCell('(555) 0100', 'Phone', { type: 'phone' })).toBe('Invalid phone number');
    expect(validateCell('+1 555-0100', 'Phone', { type: 'phone' })).toBeNull();
    expect(validateCell('', 'Phone', { type: 'phone' })).toBeNull();
  });

  it('a column with its own check uses it for every value, after the required check', () => {
    const rule = {
      type: 'number' as const,
      required: true,
      check: (value: string) => (value === '0' ? 'Qty must be greater than 0' : null),
    };
    expect(validateCell('', 'Qty', rule)).toBe('Qty is required');
    expect(validateCell(' 0 ', 'Qty', rule)).toBe('Qty must be greater than 0');
    expect(validateCell('1', 'Qty', rule)).toBeNull();
  });

  it('reads number cells as plain decimals only, as the server does', () => {
    for (const typed of ['0x10', '1e3', '0b11', 'Infinity', '5.']) {
      expect(validateCell(typed, 'Weight', { type: 'number' })).toBe('Weight must be a number');
      expect(parseCell(typed, 'number')).toBe(typed);
    }
    expect(validateCell(' 2.5 ', 'Weight', { type: 'number', min: 0 })).toBeNull();
    expect(parseCell(' 2.5 ', 'number')).toBe(2.5);
    expect(parseCell('.5', 'number')).toBe(0.5);
    expect(parseCell(' ', 'number')).toBeNull();
  });

  it('shows the messages under the cells, focuses the first invalid one and makes no call', async () => {
    const onSave = vi.fn();
    const { user } = setup({ onSave }, [parcel(1, { state: '' }), parcel(2)]);
    await user.click(row('Parcel 1').getByRole('button', { name: 'Edit' }));

    const edit = editingRow();
    expect(edit.getByRole('textbox', { name: 'Name' })).toHaveFocus();
    await user.clear(edit.getByRole('textbox', { name: 'Name' }));
    await user.clear(edit.getByRole('textbox', { name: 'Phone' }));
    await user.type(edit.getByRole('textbox', { name: 'Phone' }), 'call me');
    await user.clear(edit.getByRole('textbox', { name: 'Weight' }));
    await user.type(edit.getByRole('textbox', { name: 'Weight' }), 'heavy');
    await user.click(edit.getByRole('button', { name: 'Save' }));

    expect(edit.getByText('Name is required')).toBeInTheDocument();
    expect(edit.getByText('Invalid phone number')).toBeInTheDocument();
    expect(edit.getByText('Weight must be a number')).toBeInTheDocument();
    expect(edit.getByText('State is required')).toBeInTheDocument();
    expect(edit.getByRole('textbox', { name: 'Name' })).toHaveFocus();
    expect(edit.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
    expect(edit.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription('Name is required');

    await user.clear(edit.getByRole('textbox', { name: 'Weight' }));
    await user.type(edit.getByRole('textbox', { name: 'Weight' }), '0');
    await user.click(edit.getByRole('button', { name: 'Save' }));
    expect(edit.getByText('Weight must be greater than 1')).toBeInTheDocument();

    await user.clear(edit.getByRole('textbox', { name: 'Weight' }));
    await user.type(edit.getByRole('textbox', { name: 'Weight' }), '80');
    await user.click(edit.getByRole('button', { name: 'Save' }));
    expect(edit.getByText('Weight must be less than 70')).toBeInTheDocument();
    expect(onSave).not.toHaveBeenCalled();
  });
});

describe('editable DataTable: save and cancel', () => {
  it('saves only the changed cells, parsed, then toasts and leaves edit mode', async () => {
    const onSave = vi.fn(async (_row: Parcel, _changes: RowChanges) => 'Parcel saved on the server');
    const { user, notices } = setup({ onSave });
    await user.click(row('Parcel 2').getByRole('button', { name: 'Edit' }));
    const edit = editingRow();
    await user.clear(edit.getByRole('textbox', { name: 'Weight' }));
    await user.type(edit.getByRole('textbox', { name: 'Weight' }), '12.5');
    await user.selectOptions(edit.getByRole('combobox', { name: 'State' }), 'NY');
    await user.type(edit.getByRole('textbox', { name: 'Note' }), ' fragile ');
    await user.click(edit.getByRole('button', { name: 'Save' }));

    expect(onSave).toHaveBeenCalledTimes(1);
    expect(onSave.mock.calls[0]?.[0]).toEqual(parcel(2));
    expect(onSave.mock.calls[0]?.[1]).toEqual({ weight: 12.5, state: 'NY', note: 'note 2 fragile' });
    expect(notices).toEqual([
      { kind: 'success', message: 'Row updated successfully!', detail: 'Parcel saved on the server' },
    ]);
    expect(document.querySelector('.data-table__row--editing')).toBeNull();
    expect(row('Parcel 2').getByRole('button', { name: 'Edit' })).toHaveFocus();
  });

  it('keeps the edit open and toasts the failure with the server message', async () => {
    const onSave = vi.fn(async () => {
      throw new ApiError(409, 'ADDRESS_ID_TAKEN', 'This Address ID already exists', true);
    });
    const { user, notices } = setup({ onSave });
    await user.click(row('Parcel 1').getByRole('button', { name: 'Edit' }));
    await user.type(editingRow().getByRole('textbox', { name: 'Name' }), 'X');
    await user.click(editingRow().getByRole('button', { name: 'Save' }));

    expect(notices).toEqual([
      { kind: 'error', message: 'Failed to update the row.', detail: 'This Address ID already exists' },
    ]);
    expect(editingRow().getByRole('textbox', { name: 'Name' })).toHaveValue('Parcel 1X');
  });

  it('hides unhelpful error texts: a network failure shows only the table message', async () => {
    const onSave = vi.fn(async () => {
      throw new ApiError(0, 'NETWORK_ERROR', 'The server could not be reached', false);
    });
    const { user, notices } = setup({ onSave });
    await user.click(row('Parcel 1').getByRole('button', { name: 'Edit' }));
    await user.type(editingRow().getByRole('textbox', { name: 'Name' }), 'X');
    await user.click(editingRow().getByRole('button', { name: 'Save' }));
    expect(notices).toEqual([{ kind: 'error', message: 'Failed to update the row.', detail: undefined }]);
  });

  it('Enter saves and Escape cancels, restoring the values and focus', async () => {
    const onSave = vi.fn(async () => undefined);
    const { user } = setup({ onSave });
    await user.click(row('Parcel 1').getByRole('button', { name: 'Edit' }));
    await user.type(editingRow().getByRole('textbox', { name: 'Name' }), ' draft');
    await user.keyboard('{Escape}');
    expect(document.querySelector('.data-table__row--editing')).toBeNull();
    expect(screen.getByText('Parcel 1')).toBeInTheDocument();
    expect(row('Parcel 1').getByRole('button', { name: 'Edit' })).toHaveFocus();
    expect(onSave).not.toHaveBeenCalled();

    await user.keyboard('{Enter}');
    expect(editingRow().getByRole('textbox', { name: 'Name' })).toHaveValue('Parcel 1');
    await user.type(editingRow().getByRole('textbox', { name: 'Phone' }), '9{Enter}');
    expect(onSave).toHaveBeenCalledWith(parcel(1), { phone: '555-01009' });
  });

  it('Cancel leaves edit mode without a call; an unchanged Save makes no call either', async () => {
    const onSave = vi.fn();
    const { user, notices } = setup({ onSave });
    await user.click(row('Parcel 1').getByRole('button', { name: 'Edit' }));
    await user.clear(editingRow().getByRole('textbox', { name: 'Name' }));
    await user.click(editingRow().getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('Parcel 1')).toBeInTheDocument();

    await user.click(row('Parcel 1').getByRole('button', { name: 'Edit' }));
    await user.click(editingRow().getByRole('button', { name: 'Save' }));
    expect(document.querySelector('.data-table__row--editing')).toBeNull();
    expect(onSave).not.toHaveBeenCalled();
    expect(notices).toEqual([]);
  });

  it('shows the outcome as a toast through the app store when no onNotify is given', async () => {
    const store = createAppStore();
    const user = userEvent.setup();
    render(
      <Provider store={store}>
        <DataTable columns={columns} rows={[parcel(1)]} rowKey={(r) => r.id} onSave={async () => undefined} />
        <ToastArea />
      </Provider>,
    );
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.type(screen.getByRole('textbox', { name: 'Note' }), '!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Row updated successfully!');
    expect(store.getState().toast.toasts[0]?.duration).toBe(10_000);
  });
});

describe('editable DataTable: delete', () => {
  it('asks first; Cancel (or Escape) makes no call', async () => {
    const onDelete = vi.fn();
    const { user } = setup({ onDelete });
    const deleteButton = row('Parcel 1').getByRole('button', { name: 'Delete' });
    await user.click(deleteButton);

    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('Are you sure you want to delete this item?');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(deleteButton).toHaveFocus();

    await user.click(deleteButton);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(onDelete).not.toHaveBeenCalled();
  });

  it('Confirm calls onDelete with the row and toasts success or failure', async () => {
    let shouldFail = false;
    const onDelete = vi.fn(async () => {
      if (shouldFail) throw new Error('boom');
      return 'Gone for good';
    });
    const { user, notices } = setup({ onDelete });
    await user.click(row('Parcel 2').getByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    expect(onDelete).toHaveBeenCalledWith(parcel(2));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(notices).toEqual([{ kind: 'success', message: 'Row deleted successfully!', detail: 'Gone for good' }]);

    shouldFail = true;
    await user.click(row('Parcel 1').getByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    expect(notices[1]).toEqual({ kind: 'error', message: 'Failed to delete the row.', detail: undefined });
  });
});

function CopyHarness({ onCopy }: { onCopy: (target: string, source: string) => void }) {
  const [rows, setRows] = useState(() => Array.from({ length: 20 }, (_, i) => parcel(i + 1)));
  return (
    <DataTable
      columns={columns}
      rows={rows}
      rowKey={(r) => r.id}
      onSave={async () => undefined}
      onBulkColumnCopy={(target, source) => {
        onCopy(target, source);
        setRows((current) => copyColumnValues(current, target, source));
      }}
    />
  );
}

describe('editable DataTable: Copy from', () => {
  it('lists the other editable columns and copies the chosen one into every row', async () => {
    const onCopy = vi.fn();
    const user = userEvent.setup();
    render(<CopyHarness onCopy={onCopy} />);

    await user.click(screen.getByRole('button', { name: 'Copy into Note from another column' }));
    const menu = screen.getByRole('menu', { name: 'Copy from:' });
    expect(menu).toHaveTextContent('Copy from:');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((m) => m.textContent),
    ).toEqual(['Name', 'Phone', 'Weight', 'State']);
    expect(within(menu).getByRole('menuitem', { name: 'Name' })).toHaveFocus();
    await user.click(within(menu).getByRole('menuitem', { name: 'Name' }));

    expect(onCopy).toHaveBeenCalledWith('note', 'name');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(screen.getAllByText('Parcel 1')).toHaveLength(2);
    expect(screen.queryByText('note 1')).not.toBeInTheDocument();
    // Every row, not only the visible page.
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(screen.getAllByText('Parcel 20')).toHaveLength(2);
  });

  it('closes the menu on Escape without copying, and offers no menu without onBulkColumnCopy', async () => {
    const onCopy = vi.fn();
    const user = userEvent.setup();
    const view = render(<CopyHarness onCopy={onCopy} />);
    const toggle = screen.getByRole('button', { name: 'Copy into Name from another column' });
    await user.click(toggle);
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Weight' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(toggle).toHaveFocus();
    expect(onCopy).not.toHaveBeenCalled();
    view.unmount();

    render(<DataTable columns={columns} rows={[parcel(1)]} rowKey={(r) => r.id} />);
    expect(screen.queryByRole('button', { name: /Copy into/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).not.toBeInTheDocument();
  });

  it('copyColumnValues returns new rows and leaves the old ones alone', () => {
    const rows = [parcel(1), parcel(2)];
    const copied = copyColumnValues(rows, 'note', 'name');
    expect(copied.map((r) => r.note)).toEqual(['Parcel 1', 'Parcel 2']);
    expect(rows[0]?.note).toBe('note 1');
  });
});

describe('editable DataTable: paging', () => {
  it('shows 7 rows per page by default and pages with edit actions in place', async () => {
    const { user } = setup(
      { onSave: vi.fn(), onDelete: vi.fn() },
      Array.from({ length: 9 }, (_, i) => parcel(i + 1)),
    );
    expect(screen.getAllByRole('row')).toHaveLength(8);
    expect(screen.getAllByRole('button', { name: 'Edit' })).toHaveLength(7);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Parcel 9')).toBeInTheDocument();
    await act(async () => {});
    expect(screen.getAllByRole('button', { name: 'Delete' })).toHaveLength(2);
  });
});
