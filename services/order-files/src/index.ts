export { rowsToCsv, TEMPLATE_HEADERS, templateCsv } from './csv';
export { OrderFileError } from './errors';
export { isAmazonHeader, splitTabText } from './marketplaces/amazon/read';
export * from './marketplaces/index';
export {
  detectMarketplace,
  type ReadContext,
  type ReadResult,
  readOrderFile,
  UNRECOGNISED_FILE_MESSAGE,
  zipFlagsWarning,
} from './read-order-file';
export * from './rows';
export { neutralizeCell, restoreCell } from './spreadsheet-cell';
export { type ZipFlag, zipFlags, zipState } from './zip-check';
