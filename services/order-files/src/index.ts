export { isAmazonHeader, splitTabText } from './amazon';
export { rowsToCsv, TEMPLATE_HEADERS, templateCsv } from './csv';
export { OrderFileError } from './errors';
export {
  type ReadContext,
  type ReadResult,
  readOrderFile,
  zipFlagsWarning,
} from './read-order-file';
export * from './rows';
export { neutralizeCell, restoreCell } from './spreadsheet-cell';
export { type ZipFlag, zipFlags, zipState } from './zip-check';
