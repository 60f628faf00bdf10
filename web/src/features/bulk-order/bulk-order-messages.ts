import { UNSUPPORTED_FILE_MESSAGE } from '@flatship/order-files/rows';
import { ORDER_FILES_PROMPT } from '@flatship/proto';

/** Spec doc 2 §5 and §8: the bulk screen's texts. */
export const BULK_MESSAGES = {
  servicesFailed: 'Error loading services',
  initialDataFailed: 'Error loading initial data',
  parseFailed: 'Error parsing file',
  processingFailed: 'File processing failed',
  unsupported: UNSUPPORTED_FILE_MESSAGE,
  uploaded: 'File Uploaded successfully.',
  reset: 'File reset successfully.',
  priceFailed: 'Price calculation failed',
  initFailed: 'Failed to initialize bulk order',
  processFailed: 'Failed to process bulk order',
  skuSaveFailed: 'Failed to save the SKU preset',
  /** Names every marketplace proto lists, so a new one appears by itself. */
  dropPrompt: `Click or Drag & drop. Supports ${ORDER_FILES_PROMPT}`,
} as const;
