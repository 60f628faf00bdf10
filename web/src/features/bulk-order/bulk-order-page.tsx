import '../shell/user-area';
import { ORDER_FILE_EXTENSIONS, summarizeValidation } from '@flatship/order-files/rows';
import { type DragEvent, useEffect, useMemo, useRef, useState } from 'react';
import { formatMoney } from '../../app/format';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Modal } from '../../components/modal';
import { Spinner } from '../../components/spinner';
import { selectUser } from '../auth/auth-selectors';
import { groupByCategory } from '../order-label/order-label-form';
import { BulkAddressCheck } from './bulk-address-check';
import { BULK_TEMPLATE_URL } from './bulk-order-api';
import { BULK_MESSAGES } from './bulk-order-messages';
import {
  selectBulkFileName,
  selectBulkIsPricing,
  selectBulkIsSubmitting,
  selectBulkPrice,
  selectBulkRowIds,
  selectBulkServices,
  selectBulkServicesLoading,
  selectBulkServiceUid,
  selectIsReadingFile,
  selectValidationErrors,
} from './bulk-order-selectors';
import {
  bulkOrderOpened,
  bulkOrderSubmitted,
  fileChosen,
  fileReset,
  type RowErrors,
  serviceSelected,
  validationDismissed,
} from './bulk-order-slice';
import { BulkTable } from './bulk-table';
import { holdFile } from './file-reader';
import './bulk-order.css';

/** A dialog listing thousands of rows helps nobody; the first ones show what to fix. */
const ERRORS_SHOWN = 100;

function ServicePicker() {
  const dispatch = useAppDispatch();
  const services = useAppSelector(selectBulkServices);
  const isLoading = useAppSelector(selectBulkServicesLoading);
  const serviceUid = useAppSelector(selectBulkServiceUid);
  const groups = useMemo(() => groupByCategory(services), [services]);
  return (
    <div className="field bulk-order__service">
      <label className="field__label field__label--required" htmlFor="bulk-service">
        Service
      </label>
      <select
        id="bulk-service"
        className="input"
        value={serviceUid}
        disabled={isLoading}
        onChange={(e) => dispatch(serviceSelected(e.target.value))}
      >
        <option value="">{isLoading ? 'Loading services…' : 'Select a service...'}</option>
        {groups.map((group) => (
          <optgroup key={group.category} label={group.category}>
            {group.services.map((s) => (
              <option key={s.uid} value={s.uid}>
                {s.name}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </div>
  );
}

function SummaryBar({ onSubmit }: { onSubmit: () => void }) {
  const count = useAppSelector(selectBulkRowIds).length;
  const price = useAppSelector(selectBulkPrice);
  const isPricing = useAppSelector(selectBulkIsPricing);
  const hasFile = useAppSelector(selectBulkFileName) !== null;
  const isSubmitting = useAppSelector(selectBulkIsSubmitting);
  return (
    <div className="bulk-order__summary">
      <dl className="bulk-order__figures">
        <div>
          <dt>Count</dt>
          <dd data-testid="bulk-count">{count}</dd>
        </div>
        <div>
          <dt>Price</dt>
          <dd data-testid="bulk-price" aria-busy={isPricing || undefined}>
            {isPricing ? <Spinner size={14} /> : null} {formatMoney(price)}
          </dd>
        </div>
      </dl>
      <button
        type="button"
        className="button button--accent bulk-order__submit"
        disabled={!hasFile || isSubmitting}
        aria-busy={isSubmitting || undefined}
        onClick={onSubmit}
      >
        {isSubmitting ? 'Submitting…' : 'Submit'}
      </button>
    </div>
  );
}

function DropZone({ onFile }: { onFile: (file: File) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [isOver, setIsOver] = useState(false);
  const isReading = useAppSelector(selectIsReadingFile);
  const open = () => {
    if (!isReading) input.current?.click();
  };
  const onDrop = (event: DragEvent<HTMLButtonElement>) => {
    event.preventDefault();
    setIsOver(false);
    const file = event.dataTransfer.files[0];
    if (file && !isReading) onFile(file);
  };
  return (
    <>
      <button
        type="button"
        className={`bulk-drop${isOver ? ' bulk-drop--over' : ''}`}
        aria-busy={isReading || undefined}
        aria-describedby="bulk-drop-prompt"
        aria-label="Choose an order file"
        onClick={open}
        onDragOver={(event) => {
          event.preventDefault();
          setIsOver(true);
        }}
        onDragLeave={() => setIsOver(false)}
        onDrop={onDrop}
      >
        <svg viewBox="0 0 24 24" width="32" height="32" aria-hidden="true" focusable="false">
          <path
            d="M12 16V4m0 0-4 4m4-4 4 4M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        <span id="bulk-drop-prompt" className="bulk-drop__prompt">
          {isReading ? 'Reading the file…' : BULK_MESSAGES.dropPrompt}
        </span>
      </button>
      <input
        ref={input}
        type="file"
        hidden
        accept={ORDER_FILE_EXTENSIONS.join(',')}
        data-testid="bulk-file-input"
        onChange={(event) => {
          const file = event.target.files?.[0];
          // Cleared so choosing the same file again (after a reset) still fires a change.
          event.target.value = '';
          if (file) onFile(file);
        }}
      />
    </>
  );
}

function ValidationErrorsDialog() {
  const dispatch = useAppDispatch();
  const errors = useAppSelector(selectValidationErrors);
  const general = errors?.filter((e) => e.rowIndex < 0) ?? [];
  const rows = errors?.filter((e) => e.rowIndex >= 0) ?? [];
  const close = () => dispatch(validationDismissed());
  const rowItem = (entry: RowErrors) => (
    <li key={entry.rowIndex} className="bulk-errors__row">
      <strong>Row {entry.rowIndex + 1}</strong>
      <ul>
        {entry.errors.map((message) => (
          <li key={message}>{message}</li>
        ))}
      </ul>
    </li>
  );
  return (
    <Modal
      isOpen={errors !== null}
      title="Validation Errors"
      onClose={close}
      width={560}
      footer={
        <button type="button" className="button button--primary" onClick={close}>
          Close
        </button>
      }
    >
      {rows.length > 0 ? <p className="bulk-errors__summary">{summarizeValidation(rows.length)}</p> : null}
      {general.flatMap((entry) =>
        entry.errors.map((message) => (
          <p key={message} className="alert alert--error">
            {message}
          </p>
        )),
      )}
      {rows.length > 0 ? (
        <ul className="bulk-errors">
          {rows.slice(0, ERRORS_SHOWN).map(rowItem)}
          {rows.length > ERRORS_SHOWN ? (
            <li className="bulk-errors__more">…and {rows.length - ERRORS_SHOWN} more rows.</li>
          ) : null}
        </ul>
      ) : null}
    </Modal>
  );
}

export function BulkOrderPage() {
  const dispatch = useAppDispatch();
  const userId = useAppSelector(selectUser)?._id;
  const fileName = useAppSelector(selectBulkFileName);

  useEffect(() => {
    if (userId) dispatch(bulkOrderOpened(userId));
  }, [userId, dispatch]);

  const chooseFile = (file: File) => dispatch(fileChosen({ fileId: holdFile(file), name: file.name }));
  const submit = () => {
    if (userId) dispatch(bulkOrderSubmitted(userId));
  };

  return (
    <div className="bulk-order">
      <section className="card bulk-order__panel" aria-labelledby="bulk-order-heading">
        <div className="bulk-order__panel-head">
          <h2 id="bulk-order-heading" className="bulk-order__title">
            Bulk Order Items
          </h2>
          <a className="button button--ghost bulk-order__template" href={BULK_TEMPLATE_URL} download>
            Bulk Template CSV
          </a>
        </div>
        <div className="bulk-order__controls">
          <ServicePicker />
          <SummaryBar onSubmit={submit} />
        </div>
      </section>

      <section className="card bulk-order__rows" aria-label="Order file">
        {fileName === null ? (
          <DropZone onFile={chooseFile} />
        ) : (
          <>
            <div className="bulk-order__file">
              <span className="bulk-order__file-name" title={fileName}>
                {fileName}
              </span>
              <button type="button" className="button button--ghost" onClick={() => dispatch(fileReset())}>
                Reset
              </button>
            </div>
            <BulkAddressCheck />
            <BulkTable />
          </>
        )}
      </section>
      <ValidationErrorsDialog />
    </div>
  );
}
