import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './confirm-dialog';
import { RequestFailedError } from './data-table-requests';
import { FormDialog, type FormField, fieldForMessage } from './form-dialog';

const fields: FormField[] = [
  { name: 'street', label: 'Street', required: true },
  { name: 'street2', label: 'Street 2' },
  { name: 'zip', label: 'ZIP', required: true },
  { name: 'phone', label: 'Phone' },
];

describe('fieldForMessage', () => {
  it('finds the field a message names, the longest name winning, whole words only', () => {
    expect(fieldForMessage('ZIP must be 5 digits or ZIP+4', fields)).toBe('zip');
    expect(fieldForMessage('Invalid phone number', fields)).toBe('phone');
    expect(fieldForMessage('Street 2 is too long', fields)).toBe('street2');
    expect(fieldForMessage('Street is required', fields)).toBe('street');
    expect(fieldForMessage('Zipped files are not accepted', fields)).toBeNull();
    expect(fieldForMessage('Something went wrong', fields)).toBeNull();
  });
});

describe('FormDialog', () => {
  it("reports '{label} is required', then 'Submission failed' for an error naming no field", async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn(async () => {
      throw new Error('socket hang up');
    });
    const onClose = vi.fn();
    render(<FormDialog isOpen title="New" fields={fields} initialValues={{}} onSubmit={onSubmit} onClose={onClose} />);
    expect(screen.getByLabelText('Street')).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Street is required')).toBeInTheDocument();
    expect(screen.getByText('ZIP is required')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText('Street'), ' 1 Main St ');
    expect(screen.queryByText('Street is required')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('ZIP'), '10001');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledWith({ street: '1 Main St', street2: '', zip: '10001', phone: '' });
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Submission failed$/);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('maps a server message to its field and closes after a successful submit', async () => {
    const user = userEvent.setup();
    let fail = true;
    const onSubmit = vi.fn(async () => {
      if (fail) throw new RequestFailedError('Invalid phone number');
    });
    const onClose = vi.fn();
    render(
      <FormDialog
        isOpen
        title="New"
        fields={fields}
        initialValues={{ street: 'A', zip: '10001', phone: 'x' }}
        onSubmit={onSubmit}
        onClose={onClose}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Invalid phone number')).toBeInTheDocument();
    expect(screen.getByLabelText('Phone')).toHaveFocus();
    expect(screen.queryByText('Submission failed')).not.toBeInTheDocument();

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('ConfirmDialog', () => {
  it('focuses Cancel; Escape cancels; Confirm confirms', async () => {
    const user = userEvent.setup();
    const onCancel = vi.fn();
    const onConfirm = vi.fn();
    render(
      <ConfirmDialog
        isOpen
        text="Are you sure you want to delete this item?"
        onCancel={onCancel}
        onConfirm={onConfirm}
      />,
    );
    expect(screen.getByRole('dialog')).toHaveTextContent('Are you sure you want to delete this item?');
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});
