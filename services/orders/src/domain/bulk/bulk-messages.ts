/** How a status Force Recovery refuses reads inside a sentence. */
const STATUS_WORDS: Record<string, string> = {
  processing: 'still processing',
  completed: 'completed',
  completed_with_errors: 'completed with errors',
  failed: 'failed',
  retrying_failed: 'retrying its failed labels',
  processing_error: 'in a processing error (use Fix Batch)',
  retry_processing_error: 'in a retry processing error (use Fix Batch)',
};

/** The texts users see about bulk orders. Where the spec gives a text, it is that text. */
export const BULK_MESSAGES = {
  initialised: 'Bulk order initialized',
  accepted: 'Bulk order accepted. Labels are being created.',
  notFound: 'Bulk order not found',
  alreadySubmitted: 'This bulk order has already been submitted',
  inProgress: 'This order is already being processed',
  submitting: 'This order is already being processed. Please try again in a moment.',
  cancelled: 'This bulk order was cancelled and its charge refunded. Please start a new order.',
  noRows: 'The order has no rows',
  tooManyRows: (max: number) => `An order may have at most ${max} rows`,
  serviceMissing: 'Service name must be selected from the dropdown',
  rowErrors: (shown: string[], more: number) => `${shown.join('; ')}${more > 0 ? `; and ${more} more row(s)` : ''}`,
  noFailedLabels: 'No failed labels found',
  retryStarted: (n: number) => `Retrying ${n} failed label(s)`,
  retryDone: (recovered: number, still: number) =>
    still > 0 ? `${recovered} labels recovered. ${still} still failed.` : `${recovered} labels recovered.`,
  fileNotFound: 'File not found',
  fileNotReady: 'File is still being processed. Please try again in a few moments.',
  zplPreparing: (done: number, total: number) => `Preparing ZPL… ${done} of ${total} labels`,
  fixed: 'Batch order fixed',
  notStuck: (status: string) =>
    `Force Recovery is only for an order whose file generation is stuck. This order is ${STATUS_WORDS[status] ?? status}.`,
  recovered: 'Order recovered. Its files are ready to download.',
  recoveredResumed: 'Order recovered. Its remaining labels are being processed.',
  recoveryFailed:
    'The order files could not be generated, so the order is marked Recovery Failed. Please try Force Recovery again.',
  abandoned: 'The order could not be submitted. Its charge has been refunded.',
} as const;
