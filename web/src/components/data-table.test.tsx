import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { type Column, DataTable } from './data-table';
import { pageItems } from './pagination';

interface Row {
  id: number;
  name: string;
}

const columns: Column<Row>[] = [
  { key: 'id', header: 'Id' },
  { key: 'name', header: 'Name', render: (r) => <strong>{r.name}</strong> },
];
const rows = (n: number): Row[] => Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `Row ${i + 1}` }));

function pageButtons() {
  // Ellipses are hidden from assistive technology, so read the list items directly.
  return [...screen.getByRole('navigation').querySelectorAll('li')].map((li) => li.textContent);
}

describe('pageItems', () => {
  it('lists every page up to 7', () => {
    expect(pageItems(1, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
  it('puts ellipses around the current page', () => {
    expect(pageItems(1, 20)).toEqual([1, 2, 3, 4, 5, 'ellipsis-end', 20]);
    expect(pageItems(10, 20)).toEqual([1, 'ellipsis-start', 9, 10, 11, 'ellipsis-end', 20]);
    expect(pageItems(19, 20)).toEqual([1, 'ellipsis-start', 16, 17, 18, 19, 20]);
  });
});

describe('DataTable', () => {
  it('shows the empty text and no pagination when there are no rows', () => {
    render(<DataTable columns={columns} rows={[]} rowKey={(r) => String(r.id)} emptyText="No orders found" />);
    expect(screen.getByText('No orders found')).toBeInTheDocument();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
  });

  it('pages through rows with Previous/Next, page numbers and ellipses', async () => {
    const user = userEvent.setup();
    render(<DataTable columns={columns} rows={rows(50)} rowKey={(r) => String(r.id)} pageSize={5} caption="Items" />);

    // 10 pages: 1 2 3 4 5 … 10
    expect(screen.getAllByRole('row')).toHaveLength(6);
    expect(screen.getByText('Row 1')).toBeInTheDocument();
    expect(pageButtons()).toEqual(['1', '2', '3', '4', '5', '…', '10']);
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Page 5' }));
    expect(screen.getByText('Row 21')).toBeInTheDocument();
    expect(screen.queryByText('Row 1')).not.toBeInTheDocument();
    expect(pageButtons()).toEqual(['1', '…', '4', '5', '6', '…', '10']);
    expect(screen.getByRole('button', { name: 'Page 5' })).toHaveAttribute('aria-current', 'page');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Row 26')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Page 10' }));
    expect(screen.getByText('Row 50')).toBeInTheDocument();
    expect(pageButtons()).toEqual(['1', '…', '6', '7', '8', '9', '10']);
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(screen.getByText('Row 45')).toBeInTheDocument();
  });

  it('labels each cell with its column header for the compact layout', () => {
    render(<DataTable columns={columns} rows={rows(1)} rowKey={(r) => String(r.id)} />);
    expect(screen.getByText('Row 1').closest('td')).toHaveAttribute('data-label', 'Name');
  });
});
