import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Modal } from './modal';

function Harness() {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setIsOpen(true)}>
        Open
      </button>
      <Modal
        isOpen={isOpen}
        title="Delete item"
        onClose={() => setIsOpen(false)}
        footer={
          <>
            <button type="button">Cancel</button>
            <button type="button">Confirm</button>
          </>
        }
      >
        <p>Are you sure you want to delete this item?</p>
      </Modal>
    </>
  );
}

describe('Modal', () => {
  it('is an aria-modal dialog that keeps focus inside and closes on Escape', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);

    const dialog = screen.getByRole('dialog', { name: 'Delete item' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(screen.getByRole('button', { name: 'Close dialog' })).toHaveFocus();

    await user.tab();
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Confirm' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Close dialog' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Confirm' })).toHaveFocus();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('opened over another dialog, it alone answers Escape; focus goes back to the dialog under it', async () => {
    function Stacked() {
      const [outer, setOuter] = useState(true);
      const [inner, setInner] = useState(false);
      return (
        <>
          <Modal isOpen={outer} title="Labels of this batch" onClose={() => setOuter(false)}>
            <button type="button" onClick={() => setInner(true)}>
              Events
            </button>
          </Modal>
          <Modal isOpen={inner} title="Tracking" onClose={() => setInner(false)}>
            <p>Delivered</p>
          </Modal>
        </>
      );
    }
    const user = userEvent.setup();
    render(<Stacked />);
    const events = screen.getByRole('button', { name: 'Events' });
    await user.click(events);
    expect(screen.getByRole('dialog', { name: 'Tracking' })).toBeInTheDocument();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Tracking' })).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Labels of this batch' })).toBeInTheDocument();
    expect(events).toHaveFocus();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
