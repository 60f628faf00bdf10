export { isAmazonHeader, splitTabText } from './amazon';
export {
  type BulkRow,
  type BulkRowNumberField,
  type BulkRowTextField,
  DEFAULT_COUNTRY,
  DEFAULT_COURIER,
  DEFAULT_QUANTITY,
  emptyBulkRow,
  fromBulkOrderItem,
  normalizeBulkRow,
  parseNumberCell,
  toBulkOrderItem,
  WEIGHT_UNIT,
} from './bulk-row';
export { rowsToCsv, TEMPLATE_HEADERS, templateCsv } from './csv';
export { OrderFileError } from './errors';
export {
  orderFileKind,
  type ReadContext,
  type ReadResult,
  readOrderFile,
  UNSUPPORTED_FILE_MESSAGE,
} from './read-order-file';
export { ADDRESS_REQUIRED_MESSAGE } from './sender';
export { applySkuPresets, countSplitRows, splitByMaxQty } from './sku';
export { normalizeCountry, normalizePhone, normalizeState, normalizeZip } from './states';
export {
  fileValidationWarning,
  SERVICE_REQUIRED_MESSAGE,
  summarizeValidation,
  validateBulkRow,
  validateBulkRows,
} from './validate';
