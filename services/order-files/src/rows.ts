// The pure part of the package: bulk rows, their validation and conversion.
// The browser's main bundle imports this entry; the file readers (SheetJS,
// papaparse) stay in the root entry, which only the reading worker loads.
export {
  type BulkRow,
  type BulkRowNumberField,
  type BulkRowTextField,
  DEFAULT_COUNTRY,
  DEFAULT_COURIER,
  DEFAULT_QUANTITY,
  emptyBulkRow,
  fromBulkOrderItem,
  fromOrderCreateBody,
  normalizeBulkRow,
  parseNumberCell,
  toBulkOrderItem,
  WEIGHT_UNIT,
  WEIGHT_UNIT_MESSAGE,
  weightUnitProblem,
} from './bulk-row';
export { ORDER_FILE_EXTENSIONS, type OrderFileKind, orderFileKind, UNSUPPORTED_FILE_MESSAGE } from './file-kind';
export { ADDRESS_REQUIRED_MESSAGE } from './sender';
export { applySkuPresets, countSplitRows, splitByMaxQty } from './sku';
export { normalizeCountry, normalizePhone, normalizeState, normalizeZip } from './states';
export {
  type BulkRowProblem,
  bulkRowProblems,
  courierMessage,
  fileValidationWarning,
  MAX_TEXT,
  type RowRules,
  SERVICE_REQUIRED_MESSAGE,
  summarizeValidation,
  validateBulkRow,
  validateBulkRows,
} from './validate';
