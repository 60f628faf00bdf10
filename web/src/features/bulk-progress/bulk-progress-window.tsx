import { type BulkFileType, isTerminalBulkStatus } from '@flatship/proto';
import { useEffect, useId, useRef } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { batchLabelsOpened } from '../refunds/refunds-slice';
import { buttonText } from './bulk-download';
import { downloadKey, fileDownloadRequested } from './bulk-download-slice';
import { selectBulkProgress, selectDownloads, selectPreparing } from './bulk-progress-selectors';
import {
  bulkProgressReset,
  fileGenerationRetryRequested,
  progressWindowExpanded,
  progressWindowMinimized,
  retryRequested,
} from './bulk-progress-slice';
import {
  CLOSE_HINT,
  canRetry,
  failedLine,
  failureMessage,
  formatElapsed,
  hasFiles,
  isClosable,
  noTrackingFileNote,
  progressPercent,
  progressTitle,
  progressTone,
  retryLabel,
  warnIfInconsistent,
} from './bulk-progress-view';
import './bulk-progress.css';
import { LABELS_FILE_WORDS } from '../print-settings/print-settings-selectors';
import { usePrintFormat } from '../print-settings/use-print-format';

/** Spec doc 2 §9: the expanded window is 600 px wide. */
export const WINDOW_WIDTH = 600;

const FILE_BUTTONS: { type: BulkFileType; label: string; name: 'pdfName' | 'resultCSVName' | 'autoConfirmCSVName' }[] =
  [
    { type: 'pdf', label: 'PDF', name: 'pdfName' },
    { type: 'result-csv', label: 'Results CSV', name: 'resultCSVName' },
    { type: 'auto-csv', label: 'Auto-Confirm', name: 'autoConfirmCSVName' },
  ];

const STATUS_WORDS: Record<string, string> = {
  processing: 'Processing',
  generating_files: 'Generating files',
  retrying_failed: 'Retrying failed labels',
  completed: 'Completed',
  completed_with_errors: 'Completed with errors',
  failed: 'Failed',
};

function CloseButton({ isClosable: closable, onClose }: { isClosable: boolean; onClose: () => void }) {
  return (
    <button
      type="button"
      className="icon-button bulk-progress__close"
      aria-label="Close progress window"
      title={closable ? 'Close' : CLOSE_HINT}
      disabled={!closable}
      onClick={onClose}
    >
      ×
    </button>
  );
}

/** The floating bulk-order progress window, on every page of the user area. */
export function BulkProgressWindow() {
  const dispatch = useAppDispatch();
  const p = useAppSelector(selectBulkProgress);
  const downloads = useAppSelector(selectDownloads);
  const preparing = useAppSelector(selectPreparing);
  const printFormat = usePrintFormat();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const isExpanded = p.isVisible && p.orderId !== null && !p.isMinimized;

  useEffect(() => {
    warnIfInconsistent(p);
  }, [p]);

  useEffect(() => {
    if (!isExpanded) return;
    panel.current?.focus();
    // Escape tucks the window away rather than closing it: a running order must stay reachable.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') dispatch(progressWindowMinimized());
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [isExpanded, dispatch]);

  if (!p.isVisible || !p.orderId) return null;
  const orderId = p.orderId;
  const closable = isClosable(p);
  const percent = progressPercent(p);
  const tone = progressTone(p);
  const elapsed = formatElapsed(p.elapsedTime);
  const close = () => dispatch(bulkProgressReset());
  const isDone = isTerminalBulkStatus(p.orderStatus);

  if (p.isMinimized) {
    return (
      <aside className="bulk-progress-mini" aria-label="Bulk order progress">
        <div className="bulk-progress-mini__head">
          <strong>Bulk Order Processing</strong>
          <div className="bulk-progress-mini__buttons">
            <button
              type="button"
              className="icon-button"
              aria-label="Expand progress window"
              onClick={() => dispatch(progressWindowExpanded())}
            >
              ⤢
            </button>
            {closable ? <CloseButton isClosable onClose={close} /> : null}
          </div>
        </div>
        <div className="bulk-progress-mini__line">
          <span className={`bulk-progress-mini__state bulk-progress-mini__state--${tone}`}>
            {isDone ? 'Complete' : 'Status'}
          </span>
          <span>
            {p.processedCount}/{p.totalCount} processed
            {p.refundedCount > 0 ? `, ${p.refundedCount} refunded` : ''}
          </span>
          <span className="bulk-progress__elapsed">
            <span className="visually-hidden">Elapsed time </span>
            {elapsed}
          </span>
        </div>
        <div className={`bulk-progress__bar bulk-progress__bar--small bulk-progress__bar--${tone}`} aria-hidden="true">
          <div className="bulk-progress__fill" style={{ width: `${percent}%` }} />
        </div>
      </aside>
    );
  }

  const failure = failureMessage(p);
  const failed = failedLine(p);
  const isProcessingWithoutFiles = !isDone && !hasFiles(p);
  const isFileMissing = Boolean(p.error?.includes('File not found'));
  const trackingNote = noTrackingFileNote(p);

  return (
    <div className="bulk-progress">
      <div className="bulk-progress__backdrop" aria-hidden="true" />
      <div
        ref={panel}
        className="bulk-progress__panel"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        style={{ maxWidth: WINDOW_WIDTH }}
      >
        <div className="bulk-progress__header">
          <h2 id={titleId} className="bulk-progress__title">
            {progressTitle(p)}
          </h2>
          <div className="bulk-progress__header-buttons">
            <button
              type="button"
              className="icon-button"
              aria-label="Minimize progress window"
              onClick={() => dispatch(progressWindowMinimized())}
            >
              –
            </button>
            <CloseButton isClosable={closable} onClose={close} />
          </div>
        </div>

        <div className="bulk-progress__body">
          <div
            className={`bulk-progress__bar bulk-progress__bar--${tone}`}
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            aria-label="Bulk order progress"
            data-tone={tone}
          >
            <div className="bulk-progress__fill" style={{ width: `${percent}%` }} />
          </div>
          <div className="bulk-progress__stats">
            <span className="bulk-progress__percent">{percent}%</span>
            <span>
              Elapsed: <span className="bulk-progress__elapsed">{elapsed}</span>
            </span>
          </div>
          <dl className="bulk-progress__counts">
            <div>
              <dt>Processed</dt>
              <dd>
                {p.processedCount} / {p.totalCount}
              </dd>
            </div>
            <div>
              <dt>Failed</dt>
              <dd>{p.failedCount}</dd>
            </div>
            {p.refundedCount > 0 ? (
              // Labels an admin refunded are neither processed nor failed: said so, so the counts add up.
              <div>
                <dt>Refunded</dt>
                <dd>{p.refundedCount}</dd>
              </div>
            ) : null}
            <div>
              <dt>Status</dt>
              <dd>{STATUS_WORDS[p.orderStatus] ?? p.orderStatus}</dd>
            </div>
          </dl>

          {p.error ? (
            <p className="bulk-progress__message bulk-progress__message--error" role="alert">
              Initial Processing Error: {p.error}
            </p>
          ) : null}
          {p.statusError ? (
            <p className="bulk-progress__message bulk-progress__message--error" role="alert">
              Status Update Error: {p.statusError}
            </p>
          ) : null}
          {p.orderStatus === 'failed' && !p.error && !p.statusError ? (
            <p className="bulk-progress__message bulk-progress__message--error">
              An error occurred while processing your order.
            </p>
          ) : null}
          {failed ? <p className="bulk-progress__message bulk-progress__message--error">{failed}</p> : null}
          {failure ? <p className="bulk-progress__message bulk-progress__message--warning">{failure}</p> : null}
          {p.retryError ? (
            <p className="bulk-progress__message bulk-progress__message--warning" role="status">
              {p.retryError}
            </p>
          ) : null}
          {!closable ? <p className="bulk-progress__hint">{CLOSE_HINT}</p> : null}
        </div>

        <div className="bulk-progress__footer">
          {canRetry(p) ? (
            <button
              type="button"
              className="button button--accent"
              disabled={p.isRetrying}
              onClick={() => dispatch(retryRequested())}
            >
              {retryLabel(p)}
            </button>
          ) : null}
          {isDone && p.processedCount + p.refundedCount > 0 ? (
            // The order's labels one by one, to refund one or every unused one; the window steps aside for them.
            <button
              type="button"
              className="button button--ghost"
              onClick={() => {
                dispatch(progressWindowMinimized());
                dispatch(batchLabelsOpened(orderId));
              }}
            >
              Labels &amp; Refunds
            </button>
          ) : null}
          {isFileMissing ? (
            <button
              type="button"
              className="button button--primary"
              disabled={p.loading}
              onClick={() => dispatch(fileGenerationRetryRequested())}
            >
              {p.loading ? 'Retrying...' : 'Retry File Generation'}
            </button>
          ) : null}
          <div className="bulk-progress__downloads">
            {FILE_BUTTONS.filter((b) => p.fileData?.[b.name]).map((b) => {
              const running = downloads[downloadKey(orderId, b.type)];
              const isRunning = running !== undefined;
              const label = b.type === 'pdf' ? LABELS_FILE_WORDS[printFormat] : b.label;
              return (
                <button
                  key={b.type}
                  type="button"
                  className="button button--ghost"
                  disabled={isRunning || p.isRetrying || isProcessingWithoutFiles}
                  onClick={() => dispatch(fileDownloadRequested({ orderId, type: b.type, source: 'window' }))}
                >
                  {buttonText(label, running, preparing[downloadKey(orderId, b.type)])}
                </button>
              );
            })}
            {trackingNote ? <p className="bulk-progress__no-tracking">{trackingNote}</p> : null}
          </div>
        </div>
      </div>
    </div>
  );
}
