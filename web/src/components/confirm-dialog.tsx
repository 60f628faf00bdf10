import { useEffect, useRef } from 'react';
import { Modal } from './modal';
import './confirm-dialog.css';

interface ConfirmDialogProps {
  isOpen: boolean;
  title?: string;
  text: string;
  onConfirm: () => void;
  onCancel: () => void;
  confirmLabel?: string;
  cancelLabel?: string;
  /** While the confirmed action runs: buttons are disabled and Escape does nothing. */
  isBusy?: boolean;
  tone?: 'danger' | 'primary';
}

/**
 * Asks before an action that cannot be undone. Focus starts on Cancel so a
 * stray Enter never confirms; Escape and the backdrop cancel.
 */
export function ConfirmDialog({
  isOpen,
  title = 'Please confirm',
  text,
  onConfirm,
  onCancel,
  confirmLabel = 'Confirm',
  cancelLabel = 'Cancel',
  isBusy = false,
  tone = 'danger',
}: ConfirmDialogProps) {
  const cancelButton = useRef<HTMLButtonElement>(null);

  // Runs after the Modal's own focus step (child effects run first), so Cancel wins.
  useEffect(() => {
    if (isOpen) cancelButton.current?.focus();
  }, [isOpen]);

  const cancel = () => {
    if (!isBusy) onCancel();
  };

  return (
    <Modal
      isOpen={isOpen}
      title={title}
      onClose={cancel}
      width={420}
      closeOnBackdrop={!isBusy}
      footer={
        <>
          <button ref={cancelButton} type="button" className="button button--ghost" onClick={cancel} disabled={isBusy}>
            {cancelLabel}
          </button>
          <button
            type="button"
            className={`button ${tone === 'danger' ? 'button--danger' : 'button--primary'}`}
            onClick={onConfirm}
            disabled={isBusy}
            aria-busy={isBusy}
          >
            {confirmLabel}
          </button>
        </>
      }
    >
      <p className="confirm-dialog__text">{text}</p>
    </Modal>
  );
}
