/**
 * The marketplaces whose order files the bulk screen reads: the one list of them. Their readers and
 * confirmation files live in services/order-files/src/marketplaces (too heavy for here); its registry is
 * typed against this list, so a marketplace added here without a plugin there (or the other way round) does
 * not compile. Everything the browser, the database and the download routes need to know is here.
 */
export interface MarketplaceInfo {
  /** The bulk order's `source`: stored with the order and checked by the database. */
  readonly id: string;
  /** How people call the marketplace. */
  readonly name: string;
  /** How the bulk screen names the marketplace's file in its prompt: `Amazon .txt`. */
  readonly fileLabel: string;
  /**
   * The file name endings its exports come in, its usual one first. They choose the decoder (a workbook or
   * text) and break ties between marketplaces that recognise the same header; they never pick the marketplace.
   */
  readonly extensions: readonly string[];
  /** Whether the bulk screen names it (a test-only marketplace is read but not offered). */
  readonly listed: boolean;
  /** The file the seller uploads back to the marketplace, when it takes one: how it is saved and served. */
  readonly confirmationFile?: { readonly extension: string; readonly contentType: string };
  /**
   * For a marketplace that takes no tracking file: what the seller does instead, shown where the Auto-Confirm
   * download would be (progress window, Batch Orders). Unused when it has a `confirmationFile`.
   */
  readonly noConfirmationFileNote?: string;
}

/** How an Excel workbook is served (Walmart's and TikTok Shop's tracking uploads). */
const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const MARKETPLACES = [
  {
    id: 'csv',
    name: 'Flatship CSV template',
    fileLabel: '.csv',
    extensions: ['.csv'],
    listed: true,
    noConfirmationFileNote: 'A CSV template order has no tracking file: the Results CSV lists every tracking number.',
  },
  {
    id: 'amazon',
    name: 'Amazon',
    fileLabel: 'Amazon .txt',
    extensions: ['.txt', '.csv'],
    listed: true,
    confirmationFile: { extension: 'tsv', contentType: 'text/tab-separated-values; charset=utf-8' },
  },
  {
    id: 'walmart',
    name: 'Walmart',
    fileLabel: 'Walmart .xlsx',
    extensions: ['.xlsx', '.csv'],
    listed: true,
    confirmationFile: { extension: 'xlsx', contentType: XLSX_CONTENT_TYPE },
  },
  {
    id: 'tiktok',
    name: 'TikTok Shop',
    fileLabel: 'TikTok Shop .csv/.xlsx',
    extensions: ['.csv', '.xlsx'],
    listed: true,
    confirmationFile: { extension: 'xlsx', contentType: XLSX_CONTENT_TYPE },
  },
  {
    id: 'ebay',
    name: 'eBay',
    fileLabel: 'eBay .csv',
    extensions: ['.csv'],
    listed: true,
    confirmationFile: { extension: 'csv', contentType: 'text/csv; charset=utf-8' },
  },
  {
    id: 'shopify',
    name: 'Shopify',
    fileLabel: 'Shopify .csv',
    extensions: ['.csv'],
    listed: true,
    noConfirmationFileNote: 'Shopify takes no tracking file: mark orders shipped in Shopify (or with a Shopify app).',
  },
  {
    id: 'etsy',
    name: 'Etsy',
    fileLabel: 'Etsy .csv',
    extensions: ['.csv', '.txt'],
    listed: true,
    noConfirmationFileNote: 'Etsy takes no tracking file: mark orders shipped in Shop Manager.',
  },
  {
    id: 'test-market',
    name: 'Test Market',
    fileLabel: 'Test Market .csv',
    extensions: ['.csv'],
    listed: false,
    confirmationFile: { extension: 'csv', contentType: 'text/csv; charset=utf-8' },
  },
] as const satisfies readonly MarketplaceInfo[];

/** Where a bulk order's rows came from: a marketplace id. */
export type OrderSource = (typeof MARKETPLACES)[number]['id'];
export const ORDER_SOURCES: readonly OrderSource[] = MARKETPLACES.map((m) => m.id);

export const marketplaceInfo = (id: OrderSource): MarketplaceInfo =>
  MARKETPLACES.find((m) => m.id === id) as MarketplaceInfo;

/**
 * What to say where the Auto-Confirm download would be, for an order from `source`: the marketplace's note when it
 * takes no tracking file; null when it takes one (or the source is unknown).
 */
export function noConfirmationFileNote(source: string | null | undefined): string | null {
  const info = MARKETPLACES.find((m) => m.id === source) as MarketplaceInfo | undefined;
  return info && !info.confirmationFile ? (info.noConfirmationFileNote ?? null) : null;
}

/** The marketplaces the bulk screen offers, in list order. */
export const LISTED_MARKETPLACES: readonly MarketplaceInfo[] = MARKETPLACES.filter((m) => m.listed);

/** Every file ending the bulk screen takes (lower case, with the dot). */
export const ORDER_FILE_EXTENSIONS: readonly string[] = [...new Set(LISTED_MARKETPLACES.flatMap((m) => m.extensions))];

const joinOr = (items: readonly string[], last: string): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${last} ${items.at(-1)}`;

/** The marketplaces whose export comes as a workbook, as a phrase: `Walmart or TikTok Shop`. */
export const WORKBOOK_EXPORTERS = joinOr(
  LISTED_MARKETPLACES.filter((m) => m.extensions.includes('.xlsx')).map((m) => m.name),
  'or',
);

/** `.csv / Amazon .txt and Walmart .xlsx`: the bulk screen's prompt, from the list. */
export const ORDER_FILES_PROMPT = ((labels) => `${labels[0]} / ${joinOr(labels.slice(1), 'and')}`)(
  LISTED_MARKETPLACES.map((m) => m.fileLabel),
);

/** `a .csv, Amazon .txt or Walmart .xlsx file`: what to upload, from the list. */
export const ORDER_FILES_CHOICE = `a ${joinOr(
  LISTED_MARKETPLACES.map((m) => m.fileLabel),
  'or',
)} file`;

/**
 * How a carrier is named in a marketplace's confirmation (tracking) file. A carrier plugin keeps one per
 * marketplace it sells under (`CarrierPlugin.marketplaceCodes`); a marketplace's confirmation file reads its own.
 */
export interface MarketplaceCarrierCode {
  readonly carrierCode: string;
  readonly carrierName: string;
}
export type MarketplaceCarrierCodes = Readonly<Partial<Record<OrderSource, MarketplaceCarrierCode>>>;
