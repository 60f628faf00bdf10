// A USPS APIs v3 look-alike on loopback, built from USPS's OpenAPI specs and their examples (oauth2 v3, payments,
// labels, addresses, domestic prices, SCAN forms, tracking). Tests and end-to-end runs point the live adapter at it
// with USPS_API_BASE_URL. Requests are checked for the fields the specs require and answered with the specs'
// ErrorMessage when wrong; faults (429 with Retry-After, 5xx, a stall, a malformed body, expired tokens) are set up
// per route. It counts the labels it sells, so a test can assert that no label was bought twice.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LabelData } from '../label/label-data';
import { renderLabel } from '../label/render-pool';
import { renderScanForm } from '../label/scan-form';
import { renderZplLabel } from '../label/zpl';
import type { LabelAddress } from '../port';
import { buildImpb } from '../usps/impb';
import { USPS_SERVICES } from '../usps/services';
import { buildMultipart } from '../usps-api/multipart';

export type FakeUspsRoute =
  | 'oauth'
  | 'payment'
  | 'account'
  | 'label'
  | 'reprint'
  | 'refund'
  | 'address'
  | 'price'
  | 'scan_form'
  | 'tracking';

/**
 * What a route does instead of its work, once per request while it lasts. `stall` and `malformed` on `label` still
 * buy the label (the answer is what is lost), so a replay of the key must give it back.
 */
export type FakeUspsFault =
  /** An answer of this status in the spec's ErrorMessage shape; `detail` and `parameter` as USPS would blame. */
  | { kind: 'status'; status: number; retryAfter?: string; detail?: string; parameter?: string }
  | { kind: 'stall' }
  | { kind: 'malformed' }
  | { kind: 'unauthorized' };

/** How label answers are written; every style is one the spec lists or shows. */
export type LabelAnswerStyle =
  /** By the Accept header: the vendor JSON when it is preferred, multipart/form-data otherwise (the default). */
  | 'auto'
  | 'multipart'
  /** multipart/mixed, as scan-forms.yaml's text names its default. */
  | 'multipart-mixed'
  | 'vendor-json'
  /** A multipart body under Content-Type application/json (the spec lists application/json with multipart encoding). */
  | 'json-multipart'
  /** application/json as `{ labelMetadata, labelImage }`. */
  | 'json-object'
  /** The EditResponse example's shape: the metadata's fields nested inside `labelAddress`. */
  | 'nested-metadata';

export interface FakeUspsOptions {
  clientId?: string;
  clientSecret?: string;
  crid?: string;
  mid?: string;
  manifestMid?: string;
  epsAccount?: string;
  /** What the EPS account holds, in cents; purchases take their postage from it. */
  balanceCents?: number;
  /** Life of an access token, seconds (default 3600). */
  tokenLifetimeS?: number;
  /** Life of a payment authorization token, seconds (default 8 hours, as payments.yaml says). */
  paymentTokenLifetimeS?: number;
  /** The fake's clock (ms); tests share one with the adapter to move time. */
  now?: () => number;
}

export interface FakeUspsLabel {
  trackingNumber: string;
  idempotencyKey?: string;
  mailClass: string;
  request: Record<string, unknown>;
  metadata: Record<string, unknown>;
  pdf: Buffer;
  state: 'active' | 'canceled' | 'disputed';
  /** On a SCAN form (or marked so): sent to USPS's systems, so a void is a refund request (DISPUTED). */
  manifested: boolean;
  /** Scanned in the mail: no refund. */
  used: boolean;
  reprints: number;
  disputeId?: string;
  disputedOn?: string;
}

export interface FakeUspsRequest {
  method: string;
  path: string;
  route: FakeUspsRoute | 'unknown';
  status: number;
  headers: IncomingMessage['headers'];
}

export interface FakeUsps {
  url: string;
  /** What to configure the adapter with. */
  credentials: {
    clientId: string;
    clientSecret: string;
    crid: string;
    mid: string;
    manifestMid: string;
    epsAccount: string;
  };
  /** Labels sold: a replayed key is not a sale. */
  readonly purchases: number;
  readonly labels: ReadonlyMap<string, FakeUspsLabel>;
  readonly requests: readonly FakeUspsRequest[];
  readonly balanceCents: number;
  /** Requests to a route so far. */
  count(route: FakeUspsRoute): number;
  /** Faults for the next requests to a route, in order. */
  fail(route: FakeUspsRoute, ...faults: FakeUspsFault[]): void;
  /** Every access token issued so far stops working now. */
  expireTokens(): void;
  expirePaymentTokens(): void;
  /** At most `perSecond` label purchases a second; more get 429 with Retry-After (null: no limit). */
  setRateLimit(perSecond: number | null, retryAfterS?: number): void;
  setLabelAnswerStyle(style: LabelAnswerStyle): void;
  setBalance(cents: number): void;
  /** The label's data has gone to USPS's systems: a void becomes a refund request. */
  manifest(trackingNumber: string): void;
  markUsed(trackingNumber: string): void;
  /** The tracking answer for a number, as TrackingDetails fields (see tracking.yaml). */
  setTracking(trackingNumber: string, details: Record<string, unknown>): void;
  close(): Promise<void>;
}

const API_VERSION: Record<string, string> = {
  label: '/labels/v3',
  reprint: '/labels/v3',
  refund: '/labels/v3',
  payment: '/payments/v3',
  account: '/payments/v3',
  address: 'v3',
  price: '/prices/v3',
  scan_form: '/scan-forms/v3',
  tracking: '/tracking/v3',
};

const STATE =
  /^(AA|AE|AL|AK|AP|AS|AZ|AR|CA|CO|CT|DE|DC|FM|FL|GA|GU|HI|ID|IL|IN|IA|KS|KY|LA|ME|MH|MD|MA|MI|MN|MS|MO|MP|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PW|PA|PR|RI|SC|SD|TN|TX|UT|VT|VI|VA|WA|WV|WI|WY)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAIL_CLASSES = [
  'PARCEL_SELECT',
  'PARCEL_SELECT_LIGHTWEIGHT',
  'USPS_CONNECT_LOCAL',
  'USPS_CONNECT_REGIONAL',
  'USPS_CONNECT_MAIL',
  'USPS_GROUND_ADVANTAGE',
  'PRIORITY_MAIL_EXPRESS',
  'PRIORITY_MAIL',
  'FIRST-CLASS_PACKAGE_SERVICE',
  'LIBRARY_MAIL',
  'MEDIA_MAIL',
  'BOUND_PRINTED_MATTER',
];
const PROCESSING = ['LETTERS', 'FLATS', 'MACHINABLE', 'IRREGULAR', 'NON_MACHINABLE', 'NONSTANDARD'];
const IMAGE_TYPES = [
  'PDF',
  'TIFF',
  'JPG',
  'PNG',
  'GIF',
  'SVG',
  'ZPL203DPI',
  'ZPL300DPI',
  'EPL300DPI',
  'LABEL_BROKER',
  'NONE',
];
const LABEL_TYPES = ['4X4LABEL', '4X5LABEL', '4X6LABEL', '6X4LABEL', '2X7LABEL'];
const ENTRY_TYPES = [
  'NONE',
  'DESTINATION_NETWORK_DISTRIBUTION_CENTER',
  'DESTINATION_SECTIONAL_CENTER_FACILITY',
  'DESTINATION_DELIVERY_UNIT',
  'DESTINATION_SERVICE_HUB',
  'DESTINATION_REGIONAL_PROCESSING_DISTRIBUTION_CENTER',
];
/** The LabelRequest's own properties (`additionalProperties: false`). */
const LABEL_REQUEST_FIELDS = [
  'imageInfo',
  'toAddress',
  'fromAddress',
  'senderAddress',
  'returnAddress',
  'packageDescription',
  'customsForm',
];
const BASE_RATES_FIELDS = [
  'originZIPCode',
  'destinationZIPCode',
  'weight',
  'length',
  'width',
  'height',
  'mailClass',
  'processingCategory',
  'rateIndicator',
  'destinationEntryFacilityType',
  'priceType',
  'mailingDate',
  'accountType',
  'accountNumber',
  'hasNonstandardCharacteristics',
];

/** Street suffixes and unit words as USPS standardises them (Publication 28), enough for the fake's directory. */
const ABBREVIATIONS: Record<string, string> = {
  STREET: 'ST',
  AVENUE: 'AVE',
  ROAD: 'RD',
  BOULEVARD: 'BLVD',
  DRIVE: 'DR',
  LANE: 'LN',
  COURT: 'CT',
  PLACE: 'PL',
  SUITE: 'STE',
  APARTMENT: 'APT',
  NORTH: 'N',
  SOUTH: 'S',
  EAST: 'E',
  WEST: 'W',
};

/** ZIP codes the fake knows the city of; others take the city they are given. */
const ZIP_CITIES: Record<string, [string, string]> = {
  '20260': ['WASHINGTON', 'DC'],
  '20024': ['WASHINGTON', 'DC'],
  '63104': ['SAINT LOUIS', 'MO'],
  '10001': ['NEW YORK', 'NY'],
  '94105': ['SAN FRANCISCO', 'CA'],
  '60601': ['CHICAGO', 'IL'],
  '73301': ['AUSTIN', 'TX'],
};

class Problem extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly parameter?: string,
    readonly title = status === 404 ? 'Not Found' : status === 401 ? 'Unauthorized' : 'Bad Request',
  ) {
    super(detail);
  }
}

const base64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** A token shaped like USPS's (a JWT), so log scrubbing meets what production sends. */
function jwtLike(claims: Record<string, unknown>): string {
  return `${base64url({ alg: 'RS256', typ: 'JWT' })}.${base64url(claims)}.${randomBytes(24).toString('base64url')}`;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export async function startFakeUsps(opts: FakeUspsOptions = {}): Promise<FakeUsps> {
  const credentials = {
    clientId: opts.clientId ?? 'fake-usps-client-id',
    clientSecret: opts.clientSecret ?? `fake-usps-secret-${randomBytes(6).toString('hex')}`,
    crid: opts.crid ?? '56982563',
    mid: opts.mid ?? '899001',
    manifestMid: opts.manifestMid ?? '899002',
    epsAccount: opts.epsAccount ?? '1000098765',
  };
  const now = opts.now ?? Date.now;
  const tokenLifetimeS = opts.tokenLifetimeS ?? 3600;
  const paymentLifetimeS = opts.paymentTokenLifetimeS ?? 8 * 3600;
  let balanceCents = opts.balanceCents ?? 10_000_00;

  const accessTokens = new Map<string, number>();
  const paymentTokens = new Map<string, number>();
  const labels = new Map<string, FakeUspsLabel>();
  const byKey = new Map<string, { hash: string; trackingNumber: string }>();
  /** Labels whose PDF is being drawn: a replay or reprint arriving meanwhile waits for it, and buys nothing. */
  const rendering = new Map<string, Promise<void>>();
  const tracking = new Map<string, Record<string, unknown>>();
  const faults = new Map<FakeUspsRoute, FakeUspsFault[]>();
  const requests: FakeUspsRequest[] = [];
  const stalled = new Set<ServerResponse>();
  let purchases = 0;
  let serial = 0;
  let disputes = 103_789;
  let forms = 0;
  let rateLimit: { perSecond: number; retryAfterS: number } | null = null;
  const recentPurchases: number[] = [];
  let labelStyle: LabelAnswerStyle = 'auto';

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks)).catch((err: Error) => {
        if (!res.headersSent) send(res, 500, { error: { code: '500', message: err.message } });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    const text = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(text);
  }

  /** The specs' ErrorMessage; the token endpoint's is OAuth's (RFC 6749 §5.2), as the real one answers. */
  function errorBody(route: string, status: number, detail: string, parameter?: string, title?: string) {
    if (route === 'oauth')
      return oauthError(status === 401 ? 'invalid_client' : status < 500 ? 'invalid_request' : 'server_error', detail);
    const message =
      route === 'address' ? detail : status === 404 ? 'Not Found' : status === 401 ? 'Unauthorized' : 'Bad Request';
    return {
      apiVersion: API_VERSION[route] ?? 'v3',
      error: {
        code: String(status),
        message,
        errors:
          route === 'address'
            ? []
            : [
                {
                  status: String(status),
                  code: '00000XX',
                  title: title ?? message,
                  detail,
                  ...(parameter ? { source: { parameter } } : {}),
                },
              ],
      },
    };
  }

  function routeOf(method: string, path: string): FakeUspsRoute | 'unknown' {
    if (method === 'POST' && path === '/oauth2/v3/token') return 'oauth';
    if (method === 'POST' && path === '/payments/v3/payment-authorization') return 'payment';
    if (method === 'GET' && path.startsWith('/payments/v3/payment-account/')) return 'account';
    if (method === 'POST' && path === '/labels/v3/label') return 'label';
    if (method === 'POST' && path.startsWith('/labels/v3/label-reprint')) return 'reprint';
    if (method === 'DELETE' && path.startsWith('/labels/v3/label')) return 'refund';
    if (method === 'GET' && path === '/addresses/v3/address') return 'address';
    if (method === 'POST' && path === '/prices/v3/base-rates/search') return 'price';
    if (method === 'POST' && path === '/scan-forms/v3/scan-form') return 'scan_form';
    if (method === 'GET' && path.startsWith('/tracking/v3/tracking/')) return 'tracking';
    return 'unknown';
  }

  async function handle(req: IncomingMessage, res: ServerResponse, raw: Buffer) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const route = routeOf(method, url.pathname);
    const entry: FakeUspsRequest = { method, path: url.pathname, route, status: 0, headers: req.headers };
    requests.push(entry);
    res.on('finish', () => {
      entry.status = res.statusCode;
    });
    if (route === 'unknown' && method === 'GET' && url.pathname === '/__fake/state') {
      // Not USPS: what a test in another process (an end-to-end run) asserts on, e.g. that no label was bought twice.
      const byRoute: Record<string, number> = {};
      for (const r of requests) byRoute[r.route] = (byRoute[r.route] ?? 0) + 1;
      return send(res, 200, { purchases, labels: [...labels.keys()], requests: byRoute, balanceCents });
    }
    if (route === 'unknown') return send(res, 404, errorBody('', 404, `No such resource: ${method} ${url.pathname}`));

    const fault = faults.get(route)?.shift();
    if (fault?.kind === 'status') {
      const headers: Record<string, string> = fault.retryAfter ? { 'retry-after': fault.retryAfter } : {};
      const detail = fault.detail ?? `Injected HTTP ${fault.status}`;
      return send(res, fault.status, errorBody(route, fault.status, detail, fault.parameter), headers);
    }
    if (fault?.kind === 'unauthorized') return unauthorized(res, route);
    if (fault?.kind === 'stall' && route !== 'label') return void stalled.add(res);
    if (fault?.kind === 'malformed' && route !== 'label') return send(res, 200, '{"truncated": ');

    try {
      if (route === 'oauth') return oauth(res, raw, req.headers['content-type'] ?? '');
      if (!bearerOk(req)) return unauthorized(res, route);
      switch (route) {
        case 'payment':
          return paymentAuthorization(res, json(raw));
        case 'account':
          return account(res, url);
        case 'label':
          return await label(req, res, json(raw), fault);
        case 'reprint':
          return await reprint(req, res, url.pathname, json(raw));
        case 'refund':
          return refund(req, res, url.pathname);
        case 'address':
          return address(res, url.searchParams);
        case 'price':
          return price(res, json(raw));
        case 'scan_form':
          return await scanForm(req, res, json(raw));
        case 'tracking':
          return track(res, url);
      }
    } catch (err) {
      if (!(err instanceof Problem)) throw err;
      return send(res, err.status, errorBody(route, err.status, err.detail, err.parameter, err.title));
    }
  }

  function json(raw: Buffer): Record<string, unknown> {
    try {
      const v = JSON.parse(raw.toString('utf8'));
      if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {}
    throw new Problem(400, 'The request body is not a JSON object.', 'body');
  }

  function unauthorized(res: ServerResponse, route: FakeUspsRoute) {
    return send(res, 401, errorBody(route, 401, 'The access token is missing, invalid or expired.'), {
      'www-authenticate': 'Bearer realm="https://api.usps.com", error="invalid_token"',
    });
  }

  function bearerOk(req: IncomingMessage): boolean {
    const m = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '');
    const expires = m ? accessTokens.get(m[1] as string) : undefined;
    return expires !== undefined && now() < expires;
  }

  function paymentOk(req: IncomingMessage): void {
    const token = req.headers['x-payment-authorization-token'];
    if (typeof token !== 'string' || token === '') {
      throw new Problem(400, 'X-Payment-Authorization-Token header is required.', 'X-Payment-Authorization-Token');
    }
    const expires = paymentTokens.get(token);
    if (expires === undefined || now() >= expires) {
      throw new Problem(401, 'The payment authorization token is invalid or expired.', 'X-Payment-Authorization-Token');
    }
  }

  // ---- OAuth (RFC 6749 §4.4; USPS's Postman example sends the same fields as JSON, which is taken too) ---------

  /** OAuth's error answer (RFC 6749 §5.2), not the v3 ErrorMessage: `{ error, error_description }`. */
  function oauthError(error: string, description: string) {
    return { error, error_description: description };
  }

  function oauth(res: ServerResponse, raw: Buffer, type: string) {
    let fields: Record<string, unknown>;
    if (/json/i.test(type)) {
      try {
        fields = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      } catch {
        fields = {};
      }
    } else fields = Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
    if (fields.grant_type !== 'client_credentials') {
      return send(res, 400, oauthError('unsupported_grant_type', 'grant_type must be client_credentials'));
    }
    if (fields.client_id !== credentials.clientId || fields.client_secret !== credentials.clientSecret) {
      return send(res, 401, oauthError('invalid_client', 'Client authentication failed.'));
    }
    const issued = now();
    const expiresAt = issued + tokenLifetimeS * 1000;
    const token = jwtLike({
      sub: credentials.clientId,
      exp: Math.floor(expiresAt / 1000),
      iat: Math.floor(issued / 1000),
    });
    accessTokens.set(token, expiresAt);
    return send(res, 200, {
      access_token: token,
      token_type: 'Bearer',
      issued_at: issued,
      expires_in: tokenLifetimeS,
      status: 'approved',
      scope: 'addresses labels payments prices scan-forms tracking',
      issuer: 'api.usps.com',
      client_id: credentials.clientId,
    });
  }

  // ---- payments -------------------------------------------------------------------------------------------------

  function paymentAuthorization(res: ServerResponse, body: Record<string, unknown>) {
    const roles = body.roles;
    if (!Array.isArray(roles) || roles.length === 0) throw new Problem(400, 'roles is required.', 'roles');
    const find = (name: string) =>
      roles.find((r) => (r as { roleName?: unknown })?.roleName === name) as Record<string, unknown> | undefined;
    const payer = find('PAYER');
    const owner = find('LABEL_OWNER');
    if (!payer) throw new Problem(400, 'The PAYER role must be specified.', 'roles');
    if (!owner) throw new Problem(400, 'The LABEL_OWNER role must be specified.', 'roles');
    const names = roles.map((r) => (r as { roleName?: unknown }).roleName);
    if (new Set(names).size !== names.length) throw new Problem(400, 'Each role must only be used once.', 'roles');
    if (payer.CRID !== credentials.crid) throw new Problem(400, 'The PAYER CRID is not valid.', 'roles.CRID');
    if (payer.accountType !== 'EPS') throw new Problem(400, 'The PAYER accountType is not valid.', 'roles.accountType');
    if (payer.accountNumber !== credentials.epsAccount) {
      throw new Problem(
        400,
        'The EPS accountNumber is not active in the Enterprise Payment System.',
        'roles.accountNumber',
      );
    }
    if (
      owner.CRID !== credentials.crid ||
      owner.MID !== credentials.mid ||
      owner.manifestMID !== credentials.manifestMid
    ) {
      throw new Problem(400, 'The LABEL_OWNER CRID, MID and manifestMID must be enrolled in USPS Ship.', 'roles.MID');
    }
    const issued = now();
    const expiresAt = issued + paymentLifetimeS * 1000;
    const token = jwtLike({ roles: names, exp: Math.floor(expiresAt / 1000) });
    paymentTokens.set(token, expiresAt);
    return send(res, 200, { paymentAuthorizationToken: token, roles });
  }

  function account(res: ServerResponse, url: URL) {
    const number = decodeURIComponent(url.pathname.split('/').pop() ?? '');
    const type = url.searchParams.get('accountType');
    if (type !== 'EPS' && type !== 'PERMIT') throw new Problem(400, 'accountType is required.', 'accountType');
    if (number !== credentials.epsAccount) throw new Problem(404, 'Payment account not found.', 'account-number');
    const amount = url.searchParams.get('amount');
    const out: Record<string, unknown> = { accountType: 'EPS', accountNumber: number, nonProfitStatus: false };
    if (amount !== null) {
      const dollars = Number(amount);
      if (!Number.isFinite(dollars) || dollars < 0) throw new Problem(400, 'amount must be a number.', 'amount');
      out.sufficientFunds = balanceCents >= Math.round(dollars * 100);
    }
    return send(res, 200, out);
  }

  // ---- labels ---------------------------------------------------------------------------------------------------

  function checkAddress(a: unknown, name: string, opts: { person: boolean }): Record<string, unknown> {
    if (!a || typeof a !== 'object') throw new Problem(400, `${name} is required.`, name);
    const address = a as Record<string, unknown>;
    for (const field of ['streetAddress', 'city', 'state', 'ZIPCode']) {
      if (typeof address[field] !== 'string' || address[field] === '') {
        throw new Problem(400, `${name}.${field} is required.`, `${name}.${field}`);
      }
    }
    if (String(address.streetAddress).length > 50)
      throw new Problem(400, 'streetAddress is too long.', `${name}.streetAddress`);
    if (String(address.city).length > 28) throw new Problem(400, 'city is too long.', `${name}.city`);
    if (!STATE.test(String(address.state))) throw new Problem(400, 'state is not a valid state code.', `${name}.state`);
    if (!/^\d{5}$/.test(String(address.ZIPCode)))
      throw new Problem(400, 'ZIPCode must be 5 digits.', `${name}.ZIPCode`);
    if (address.ZIPPlus4 !== undefined && address.ZIPPlus4 !== null && !/^\d{4}$/.test(String(address.ZIPPlus4))) {
      throw new Problem(400, 'ZIPPlus4 must be 4 digits.', `${name}.ZIPPlus4`);
    }
    if (opts.person && !(address.firm || (address.firstName && address.lastName))) {
      throw new Problem(400, 'The First and Last Name or Firm Name are required.', `${name}.firstName`);
    }
    if (address.phone !== undefined && !/^\+?[1-9][0-9]{7,14}$|^[0-9]{6,15}$/.test(String(address.phone))) {
      throw new Problem(400, 'phone is not valid.', `${name}.phone`);
    }
    if (isNowhere(address)) throw new Problem(400, 'Address not found.', `${name}.streetAddress`);
    return address;
  }

  const isNowhere = (a: Record<string, unknown>) => /NOWHERE/i.test(String(a.streetAddress ?? ''));

  function checkPackage(p: unknown): Record<string, unknown> {
    if (!p || typeof p !== 'object') throw new Problem(400, 'packageDescription is required.', 'packageDescription');
    const pkg = p as Record<string, unknown>;
    for (const field of [
      'destinationEntryFacilityType',
      'height',
      'length',
      'mailClass',
      'mailingDate',
      'processingCategory',
      'weight',
      'width',
    ]) {
      if (pkg[field] === undefined || pkg[field] === null || pkg[field] === '') {
        throw new Problem(400, `packageDescription.${field} is required.`, `packageDescription.${field}`);
      }
    }
    if (pkg.rateIndicator === undefined && (pkg.packagingType === undefined || pkg.shape === undefined)) {
      throw new Problem(
        400,
        'rateIndicator, or packagingType and shape, is required.',
        'packageDescription.rateIndicator',
      );
    }
    if (!MAIL_CLASSES.includes(String(pkg.mailClass)))
      throw new Problem(400, 'mailClass is not valid.', 'packageDescription.mailClass');
    if (!PROCESSING.includes(String(pkg.processingCategory))) {
      throw new Problem(400, 'processingCategory is not valid.', 'packageDescription.processingCategory');
    }
    if (!ENTRY_TYPES.includes(String(pkg.destinationEntryFacilityType))) {
      throw new Problem(
        400,
        'destinationEntryFacilityType is not valid.',
        'packageDescription.destinationEntryFacilityType',
      );
    }
    for (const field of ['weight', 'length', 'width', 'height']) {
      const v = pkg[field];
      if (typeof v !== 'number' || !(v > 0)) {
        throw new Problem(400, `${field} must be a number greater than 0.`, `packageDescription.${field}`);
      }
    }
    if ((pkg.weight as number) > 70) {
      throw new Problem(
        400,
        'Items must weigh 70 pounds (1120 ounces) or less; the weight exceeds the maximum.',
        'packageDescription.weight',
      );
    }
    const date = String(pkg.mailingDate);
    if (!/^\d{4}-\d{2}-\d{2}(T.*)?$/.test(date))
      throw new Problem(400, 'mailingDate is not a date.', 'packageDescription.mailingDate');
    const today = isoDay(now());
    const last = isoDay(now() + 7 * 86_400_000);
    if (date.slice(0, 10) < today || date.slice(0, 10) > last) {
      throw new Problem(
        400,
        'The mailing date may be today plus 0 to 7 days in advance.',
        'packageDescription.mailingDate',
      );
    }
    return pkg;
  }

  function checkImageInfo(info: unknown, kind: 'label' | 'reprint'): { imageType: string; labelType: string } {
    const field = 'imageInfo';
    const i = (info ?? {}) as Record<string, unknown>;
    const imageType = (i.imageType as string | undefined) ?? 'PDF';
    const labelType = (i.labelType as string | undefined) ?? '4X6LABEL';
    if (!IMAGE_TYPES.includes(imageType)) throw new Problem(400, 'imageType is not valid.', `${field}.imageType`);
    if (!LABEL_TYPES.includes(labelType)) throw new Problem(400, 'labelType is not valid.', `${field}.labelType`);
    if (!['PDF', 'ZPL203DPI'].includes(imageType)) {
      throw new Problem(400, `The fake makes PDF and ZPL203DPI images only, not ${imageType}.`, `${field}.imageType`);
    }
    const receipt = i.receiptOption ?? 'SAME_PAGE';
    // LabelReprintImageInfo has no receiptOption.
    if (kind === 'label' && imageType.startsWith('ZPL') && receipt === 'SAME_PAGE') {
      throw new Problem(400, 'A receiptOption of SAME_PAGE is not supported with ZPL.', `${field}.receiptOption`);
    }
    return { imageType, labelType };
  }

  const zoneOf = (from: string, to: string) =>
    1 + Math.min(8, Math.floor(Math.abs(Number(from.slice(0, 3)) - Number(to.slice(0, 3))) / 100));

  /** The fake's price list (commercial): a base by class, per pound by zone, and the nonstandard-length fee. */
  function priceOf(mailClass: string, weightLb: number, zone: number, longest: number) {
    const base = mailClass === 'PRIORITY_MAIL_EXPRESS' ? 2895 : mailClass === 'PRIORITY_MAIL' ? 915 : 465;
    const perLb = mailClass === 'PRIORITY_MAIL_EXPRESS' ? 310 : mailClass === 'PRIORITY_MAIL' ? 95 : 55;
    const postageCents = base + Math.ceil(Math.max(0, weightLb - 1)) * perLb + (zone - 1) * 37;
    const fees = longest > 22 ? [{ name: 'Nonstandard Length > 22', SKU: 'D811XUXXXXX0000', price: 4 }] : [];
    const letter = mailClass === 'PRIORITY_MAIL_EXPRESS' ? 'E' : mailClass === 'PRIORITY_MAIL' ? 'P' : 'U';
    const sku = `D${letter}XP0XXXXC${String(zone).padStart(2, '0')}${String(Math.ceil(weightLb)).padStart(3, '0')}`;
    return { postage: postageCents / 100, fees, sku };
  }

  const serviceOf = (mailClass: string) =>
    USPS_SERVICES.find(
      (s) =>
        (mailClass === 'PRIORITY_MAIL' && s.uid === 'usps_priority_mail') ||
        (mailClass === 'USPS_GROUND_ADVANTAGE' && s.uid === 'usps_ground_advantage') ||
        (mailClass === 'PRIORITY_MAIL_EXPRESS' && s.uid === 'usps_priority_mail_express'),
    ) ?? (USPS_SERVICES[1] as (typeof USPS_SERVICES)[number]);

  function addressOf(a: Record<string, unknown>): LabelAddress {
    const name = [a.firstName, a.lastName].filter(Boolean).join(' ');
    return {
      name: name || String(a.firm ?? ''),
      ...(name && a.firm ? { company: String(a.firm) } : {}),
      street1: String(a.streetAddress ?? ''),
      ...(a.secondaryAddress ? { street2: String(a.secondaryAddress) } : {}),
      city: String(a.city ?? ''),
      state: String(a.state ?? ''),
      zip: a.ZIPPlus4 ? `${a.ZIPCode}-${a.ZIPPlus4}` : String(a.ZIPCode ?? ''),
      country: 'US',
    };
  }

  /** The label as ZPL, drawn by the library's ZPL renderer from what the label request said. */
  function zplOf(l: FakeUspsLabel): Buffer {
    return renderZplLabel(labelDataOf(l.request, l.trackingNumber, l.mailClass));
  }

  function labelDataOf(request: Record<string, unknown>, trackingNumber: string, mailClass: string): LabelData {
    const service = serviceOf(mailClass);
    const pkg = request.packageDescription as Record<string, unknown>;
    const refs = Array.isArray(pkg.customerReference) ? (pkg.customerReference as { referenceNumber?: string }[]) : [];
    return {
      service: { letter: service.letter, banner: service.banner, trackingBanner: service.trackingBanner },
      trackingNumber,
      from: addressOf(request.fromAddress as Record<string, unknown>),
      to: addressOf(request.toAddress as Record<string, unknown>),
      weightLb: pkg.weight as number,
      shipDate: new Date(`${String(pkg.mailingDate).slice(0, 10)}T12:00:00Z`),
      references: refs[0]?.referenceNumber ? { orderId: refs[0].referenceNumber } : undefined,
    };
  }

  /** The label as a 4x6 PDF, drawn by the library's label renderer. */
  async function pdfOf(request: Record<string, unknown>, trackingNumber: string, mailClass: string): Promise<Buffer> {
    return renderLabel(labelDataOf(request, trackingNumber, mailClass));
  }

  function prefers(req: IncomingMessage, type: string): boolean {
    const accept = (req.headers.accept ?? '').split(',').map((s) => s.trim());
    let best = '';
    let bestQ = -1;
    for (const item of accept) {
      const [t, ...params] = item.split(';').map((s) => s.trim());
      const q = Number(params.find((p) => p.startsWith('q='))?.slice(2) ?? 1);
      if (t && q > bestQ) [best, bestQ] = [t, q];
    }
    return best === type;
  }

  function sendLabel(
    req: IncomingMessage,
    res: ServerResponse,
    metadata: Record<string, unknown>,
    image: Buffer,
    imageType: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    const fileType = imageType === 'PDF' ? 'application/pdf' : 'application/octet-stream';
    const fileName = imageType === 'PDF' ? 'labelImage.pdf' : 'labelImage.zpl';
    const b64 = image.toString('base64');
    const style =
      labelStyle === 'auto'
        ? prefers(req, 'application/vnd.usps.labels+json')
          ? 'vendor-json'
          : 'multipart'
        : labelStyle;
    if (style === 'vendor-json') {
      return send(
        res,
        200,
        { ...metadata, ...extra, labelImage: b64 },
        { 'content-type': 'application/vnd.usps.labels+json', ...headers },
      );
    }
    if (style === 'json-object') {
      return send(res, 200, { labelMetadata: metadata, labelImage: b64, ...extra }, headers);
    }
    const meta = style === 'nested-metadata' ? nestInLabelAddress(metadata) : metadata;
    const boundary = `usps-${randomBytes(12).toString('hex')}`;
    const parts: { headers: Record<string, string>; body: string }[] = [
      {
        headers: { 'Content-Disposition': 'form-data; name="labelMetadata"', 'Content-Type': 'application/json' },
        body: JSON.stringify(meta),
      },
      {
        headers: {
          'Content-Disposition': `form-data; name="labelImage"; filename="${fileName}"`,
          'Content-Type': fileType,
          // "Ignore the Content-Transfer-Encoding header … always Base64 encoded"; lines of 76, as MIME writes them.
          'Content-Transfer-Encoding': 'binary',
        },
        body: b64.replace(/(.{76})/g, '$1\r\n'),
      },
      ...Object.entries(extra).map(([name, value]) => ({
        headers: { 'Content-Disposition': `form-data; name="${name}"`, 'Content-Type': 'application/json' },
        body: JSON.stringify(value),
      })),
    ];
    const type =
      style === 'json-multipart'
        ? 'application/json'
        : style === 'multipart-mixed'
          ? `multipart/mixed; boundary=${boundary}`
          : `multipart/form-data; boundary="${boundary}"`;
    res.writeHead(200, { 'content-type': type, ...headers }).end(buildMultipart(boundary, parts));
  }

  /** The EditResponse example's shape. */
  function nestInLabelAddress(metadata: Record<string, unknown>): Record<string, unknown> {
    const { labelAddress, ...rest } = metadata;
    return { labelAddress: { ...(labelAddress as object), ...rest } };
  }

  async function label(
    req: IncomingMessage,
    res: ServerResponse,
    body: Record<string, unknown>,
    fault?: FakeUspsFault,
  ) {
    paymentOk(req);
    const key = req.headers['x-idempotency-key'];
    if (key !== undefined && (typeof key !== 'string' || !UUID.test(key))) {
      throw new Problem(400, 'X-Idempotency-Key must be a UUID.', 'X-Idempotency-Key');
    }
    if (rateLimit) {
      const t = now();
      while (recentPurchases.length > 0 && (recentPurchases[0] as number) <= t - 1000) recentPurchases.shift();
      if (recentPurchases.length >= rateLimit.perSecond) {
        return send(res, 429, errorBody('label', 429, 'Too many requests.'), {
          'retry-after': String(rateLimit.retryAfterS),
        });
      }
      recentPurchases.push(t);
    }
    for (const field of Object.keys(body)) {
      if (!LABEL_REQUEST_FIELDS.includes(field))
        throw new Problem(400, `${field} is not a LabelRequest property.`, field);
    }
    const hash = createHash('sha256').update(canonical(body)).digest('hex');
    const earlier = typeof key === 'string' ? byKey.get(key.toLowerCase()) : undefined;
    if (earlier) {
      if (earlier.hash !== hash) {
        // The spec says what an identical replay gets, not what a different body does: the fake refuses it.
        throw new Problem(
          400,
          'The X-Idempotency-Key was already used with a different request payload.',
          'X-Idempotency-Key',
        );
      }
      await rendering.get(earlier.trackingNumber);
      const l = labels.get(earlier.trackingNumber) as FakeUspsLabel;
      if (fault?.kind === 'stall') return void stalled.add(res);
      if (fault?.kind === 'malformed') return sendMalformedLabel(res);
      return sendLabel(req, res, l.metadata, l.pdf, 'PDF');
    }
    const { imageType } = checkImageInfo(body.imageInfo, 'label');
    const to = checkAddress(body.toAddress, 'toAddress', { person: true });
    const from = checkAddress(body.fromAddress, 'fromAddress', { person: true });
    const pkg = checkPackage(body.packageDescription);
    const mailClass = String(pkg.mailClass);
    const service = serviceOf(mailClass);
    const zone = zoneOf(String(from.ZIPCode), String(to.ZIPCode));
    const longest = Math.max(pkg.length as number, pkg.width as number, pkg.height as number);
    const price = priceOf(mailClass, pkg.weight as number, zone, longest);
    const extraServices = [{ name: 'USPS Tracking', price: 0, SKU: 'DXTP0EXXXCX0000' }];
    const totalCents = Math.round(price.postage * 100) + price.fees.reduce((s, f) => s + Math.round(f.price * 100), 0);
    if (totalCents > balanceCents)
      throw new Problem(400, 'Insufficient funds in the EPS payment account.', 'X-Payment-Authorization-Token');

    serial += 1;
    const trackingNumber = buildImpb({
      serviceTypeCode: service.serviceTypeCode,
      mailerId: credentials.mid,
      serial: String(serial).padStart(22 - 2 - 3 - credentials.mid.length - 1, '0'),
    });
    const metadata: Record<string, unknown> = {
      labelAddress: {
        streetAddress: String(to.streetAddress).toUpperCase(),
        ...(to.secondaryAddress ? { secondaryAddress: String(to.secondaryAddress).toUpperCase() } : {}),
        city: String(to.city).toUpperCase(),
        state: to.state,
        ZIPCode: to.ZIPCode,
        ZIPPlus4: to.ZIPPlus4 ?? zipPlus4Of(String(to.streetAddress)),
        ...(to.firstName ? { firstName: String(to.firstName).toUpperCase() } : {}),
        ...(to.lastName ? { lastName: String(to.lastName).toUpperCase() } : {}),
        ...(to.firm ? { firm: String(to.firm).toUpperCase() } : {}),
      },
      routingInformation: `420${to.ZIPCode}`,
      trackingNumber,
      constructCode: credentials.mid.length === 9 ? 'C02' : 'C01',
      SKU: price.sku,
      postage: price.postage,
      extraServices,
      serviceTypeCode: service.serviceTypeCode,
      zone: String(zone).padStart(2, '0'),
      mailingDate: `${String(pkg.mailingDate).slice(0, 10)}T22:00:00Z`,
      commitment: {
        name: `${Math.min(5, zone)} Days`,
        expectedDeliveryDate: isoDay(now() + Math.min(5, zone) * 86_400_000),
      },
      weightUOM: 'lb',
      weight: pkg.weight,
      dimensionalWeight: 0,
      fees: price.fees,
      bannerText: service.trackingBanner.trim(),
      retailDistributionCode: '01',
      links: [
        {
          rel: ['Tracking URL'],
          href: `https://tools.usps.com/go/TrackConfirmAction_input?origTrackNum=${trackingNumber}`,
        },
      ],
    };
    const l: FakeUspsLabel = {
      trackingNumber,
      ...(typeof key === 'string' ? { idempotencyKey: key.toLowerCase() } : {}),
      mailClass,
      request: body,
      metadata,
      pdf: Buffer.alloc(0),
      state: 'active',
      manifested: false,
      used: false,
      reprints: 0,
    };
    // Sold before the PDF is drawn, so a second request with the same key, even one arriving at the same moment,
    // finds the sale and gets this label.
    labels.set(trackingNumber, l);
    if (typeof key === 'string') byKey.set(key.toLowerCase(), { hash, trackingNumber });
    purchases += 1;
    balanceCents -= totalCents;
    const drawn = pdfOf(body, trackingNumber, mailClass).then((pdf) => {
      l.pdf = pdf;
    });
    rendering.set(trackingNumber, drawn);
    await drawn;
    rendering.delete(trackingNumber);
    if (fault?.kind === 'stall') return void stalled.add(res);
    if (fault?.kind === 'malformed') return sendMalformedLabel(res);
    return sendLabel(req, res, metadata, imageType === 'PDF' ? l.pdf : zplOf(l), imageType);
  }

  /** A label answer cut short: its metadata part unfinished, no closing delimiter. */
  function sendMalformedLabel(res: ServerResponse) {
    res
      .writeHead(200, { 'content-type': 'multipart/form-data; boundary=cut' })
      .end('--cut\r\nContent-Disposition: form-data; name="labelMetadata"\r\n\r\n{"trackingNumber": "9');
  }

  async function reprint(req: IncomingMessage, res: ServerResponse, path: string, body: Record<string, unknown>) {
    paymentOk(req);
    for (const field of Object.keys(body)) {
      if (field !== 'imageInfo') throw new Problem(400, `${field} is not a LabelReprintRequest property.`, field);
    }
    const { imageType } = checkImageInfo(body.imageInfo, 'reprint');
    let l: FakeUspsLabel | undefined;
    const tail = path.slice('/labels/v3/label-reprint'.length);
    if (tail.startsWith('/')) l = labels.get(decodeURIComponent(tail.slice(1)));
    else {
      const key = req.headers['x-idempotency-key'];
      if (typeof key !== 'string' || !UUID.test(key))
        throw new Problem(400, 'X-Idempotency-Key is required.', 'X-Idempotency-Key');
      const found = byKey.get(key.toLowerCase());
      l = found ? labels.get(found.trackingNumber) : undefined;
    }
    if (!l) throw new Problem(400, 'Order not found', 'trackingNumber');
    await rendering.get(l.trackingNumber);
    if (l.state !== 'active') throw new Problem(400, 'Canceled labels are not eligible for reprint.', 'trackingNumber');
    if (l.reprints >= 3) throw new Problem(400, 'Labels can only be reprinted up to 3 times.', 'trackingNumber');
    l.reprints += 1;
    const image = imageType === 'PDF' ? l.pdf : zplOf(l);
    return sendLabel(
      req,
      res,
      l.metadata,
      image,
      imageType,
      { reprintInfo: { reprintNumber: l.reprints, reprintLimit: 3 } },
      l.idempotencyKey ? { 'x-idempotency-key': l.idempotencyKey } : {},
    );
  }

  function refund(req: IncomingMessage, res: ServerResponse, path: string) {
    paymentOk(req);
    let l: FakeUspsLabel | undefined;
    const tail = path.slice('/labels/v3/label'.length);
    if (tail.startsWith('/')) l = labels.get(decodeURIComponent(tail.slice(1)));
    else {
      const key = req.headers['x-idempotency-key'];
      if (typeof key !== 'string' || !UUID.test(key))
        throw new Problem(400, 'X-Idempotency-Key is required.', 'X-Idempotency-Key');
      const found = byKey.get(key.toLowerCase());
      l = found ? labels.get(found.trackingNumber) : undefined;
    }
    // ExampleCancelError_NOTFOUND, ExampleCancelError_REFUND_NOT_SUBMITTED, ExampleCancelError_REFUND_SAMELABEL_SAMEDAY.
    if (!l) throw new Problem(400, 'Order not found', 'trackingNumber');
    const headers: Record<string, string> =
      l.idempotencyKey && !tail.startsWith('/') ? { 'x-idempotency-key': l.idempotencyKey } : {};
    // A label cancelled before stays cancelled (the spec does not say what a second cancel gets; the fake repeats).
    if (l.state === 'canceled')
      return send(res, 200, { trackingNumber: l.trackingNumber, status: 'CANCELED' }, headers);
    if (l.used) throw new Problem(400, 'A refund request for this order cannot be submitted', 'trackingNumber');
    if (l.state === 'disputed') {
      if (l.disputedOn === isoDay(now())) {
        throw new Problem(400, 'A refund request for this order has already been submitted today', 'trackingNumber');
      }
      // "The system will only give one unique disputeId per customer reference ID (CRID) per day."
      disputes += 1;
      l.disputeId = String(disputes);
      l.disputedOn = isoDay(now());
      return send(res, 200, { trackingNumber: l.trackingNumber, status: 'DISPUTED', disputeId: l.disputeId }, headers);
    }
    if (!l.manifested) {
      l.state = 'canceled';
      balanceCents += Math.round((l.metadata.postage as number) * 100);
      return send(res, 200, { trackingNumber: l.trackingNumber, status: 'CANCELED' }, headers);
    }
    disputes += 1;
    l.state = 'disputed';
    l.disputeId = String(disputes);
    l.disputedOn = isoDay(now());
    return send(res, 200, { trackingNumber: l.trackingNumber, status: 'DISPUTED', disputeId: l.disputeId }, headers);
  }

  // ---- addresses ------------------------------------------------------------------------------------------------

  function zipPlus4Of(street: string): string {
    const n = createHash('sha1').update(street.toUpperCase()).digest().readUInt16BE(0) % 10_000;
    return String(n).padStart(4, '0');
  }

  function standardStreet(s: string): string {
    return s
      .toUpperCase()
      .replace(/[.,]/g, '')
      .split(/\s+/)
      .filter(Boolean)
      .map((w) => ABBREVIATIONS[w] ?? w)
      .join(' ');
  }

  /**
   * The fake's address directory. A street with NOWHERE is unknown (404); ONE MANY is ambiguous (404, multiple);
   * a house number 0 fails DPV (N); TOWER without a unit is D (and correction 32); UNIT X is S; everything else is
   * found, standardised (upper case, Publication 28 abbreviations, ZIP+4 added).
   */
  function address(res: ServerResponse, q: URLSearchParams) {
    const street = q.get('streetAddress');
    const state = q.get('state');
    const city = q.get('city');
    const zip = q.get('ZIPCode');
    const notFound = (message: string) =>
      send(res, 404, { apiVersion: 'v3', error: { code: '404', message, errors: [] } });
    if (!street) throw new Problem(400, 'streetAddress is required.', 'streetAddress');
    if (!state) throw new Problem(400, 'state is required.', 'state');
    if (!STATE.test(state)) return notFound('The state code in the request is missing or invalid.');
    if (zip !== null && !/^\d{5}$/.test(zip)) throw new Problem(400, 'ZIPCode must be 5 digits.', 'ZIPCode');
    if (!city && !zip) return notFound('The address information in the request is insufficient to match.');
    if (/NOWHERE/i.test(street)) return notFound('There is no match for the address requested.');
    if (/ONE MANY/i.test(street)) return notFound('More than one address was found matching the requested address.');
    const known = zip ? ZIP_CITIES[zip] : undefined;
    if (known && known[1] !== state) return notFound('The city and state are missing or together unverifiable.');
    const secondary = q.get('secondaryAddress');
    const standard = standardStreet(street);
    const houseZero = /^0\s/.test(standard);
    const tower = /TOWER/.test(standard) && !secondary;
    const badUnit = /UNIT X/i.test(secondary ?? '');
    const dpv = houseZero ? 'N' : tower ? 'D' : badUnit ? 'S' : 'Y';
    const resolvedZip =
      zip ??
      Object.entries(ZIP_CITIES).find(([, [c, s]]) => c === (city ?? '').toUpperCase() && s === state)?.[0] ??
      '20260';
    return send(res, 200, {
      firm: q.get('firm')?.toUpperCase() || undefined,
      address: {
        streetAddress: standard,
        streetAddressAbbreviation: standard,
        ...(secondary ? { secondaryAddress: standardStreet(secondary) } : {}),
        city: known?.[0] ?? (city ?? '').toUpperCase().replace(/[.,]/g, '').replace(/^ST /, 'SAINT '),
        state,
        ZIPCode: resolvedZip,
        ZIPPlus4: dpv === 'Y' ? zipPlus4Of(standard) : null,
      },
      additionalInfo: {
        deliveryPoint: '01',
        carrierRoute: 'C012',
        DPVConfirmation: dpv,
        DPVCMRA: 'N',
        business: 'N',
        centralDeliveryPoint: 'N',
        vacant: 'N',
      },
      corrections:
        dpv === 'D'
          ? [
              {
                code: '32',
                text: 'Default address: The address you entered was found but more information is needed (such as an apartment, suite, or box number) to match to a specific address.',
              },
            ]
          : [],
      matches: dpv === 'Y' ? [{ code: '31', text: 'Single Response - exact match' }] : [],
      warnings: [],
    });
  }

  // ---- prices ---------------------------------------------------------------------------------------------------

  function price(res: ServerResponse, body: Record<string, unknown>) {
    for (const field of Object.keys(body)) {
      if (!BASE_RATES_FIELDS.includes(field))
        throw new Problem(400, `${field} is not a BaseRatesQuery property.`, field);
    }
    for (const field of [
      'destinationEntryFacilityType',
      'destinationZIPCode',
      'height',
      'length',
      'mailClass',
      'originZIPCode',
      'priceType',
      'processingCategory',
      'rateIndicator',
      'weight',
      'width',
    ]) {
      if (body[field] === undefined || body[field] === null || body[field] === '')
        throw new Problem(400, `${field} is required.`, field);
    }
    for (const field of ['originZIPCode', 'destinationZIPCode']) {
      if (!/^\d{5}(?:[-\s]\d{4})?$/.test(String(body[field])))
        throw new Problem(400, `${field} is not a ZIP Code.`, field);
    }
    if (!MAIL_CLASSES.includes(String(body.mailClass))) throw new Problem(400, 'mailClass is not valid.', 'mailClass');
    for (const field of ['weight', 'length', 'width', 'height']) {
      if (typeof body[field] !== 'number' || !((body[field] as number) > 0))
        throw new Problem(400, `${field} must be greater than 0.`, field);
    }
    if ((body.weight as number) > 70) throw new Problem(400, 'The weight exceeds the maximum of 70 pounds.', 'weight');
    const zone = zoneOf(String(body.originZIPCode), String(body.destinationZIPCode));
    const longest = Math.max(body.length as number, body.width as number, body.height as number);
    const p = priceOf(String(body.mailClass), body.weight as number, zone, longest);
    const contract = body.accountType === 'EPS' && body.accountNumber === credentials.epsAccount;
    const total = Math.round(p.postage * 100) + p.fees.reduce((s, f) => s + Math.round(f.price * 100), 0);
    return send(res, 200, {
      totalBasePrice: total / 100,
      rates: [
        {
          SKU: p.sku,
          description: `${serviceOf(String(body.mailClass)).name} ${body.processingCategory === 'NONSTANDARD' ? 'Nonstandard' : 'Machinable'} Single-piece`,
          priceType: 'COMMERCIAL',
          price: p.postage,
          weight: body.weight,
          dimWeight: 0,
          fees: p.fees,
          startDate: '2025-07-13',
          endDate: '',
          ...(contract
            ? {
                warnings: [
                  {
                    warningCode: '001',
                    warningDescription: 'Contract rate not found for request. Published rate returned.',
                  },
                ],
              }
            : {}),
          mailClass: body.mailClass,
          zone: String(zone).padStart(2, '0'),
          processingCategory: body.processingCategory,
          destinationEntryFacilityType: 'NONE',
          rateIndicator: body.rateIndicator,
        },
      ],
    });
  }

  // ---- SCAN forms -----------------------------------------------------------------------------------------------

  async function scanForm(req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>) {
    const allowed = [
      'imageInfo',
      'form',
      'imageType',
      'labelType',
      'mailingDate',
      'overwriteMailingDate',
      'entryFacilityZIPCode',
      'destinationEntryFacilityType',
      'shipment',
      'fromAddress',
    ];
    for (const field of Object.keys(body)) {
      if (!allowed.includes(field)) throw new Problem(400, `${field} is not a SCANFormRequest property.`, field);
    }
    for (const field of [
      'destinationEntryFacilityType',
      'entryFacilityZIPCode',
      'fromAddress',
      'mailingDate',
      'shipment',
    ]) {
      if (body[field] === undefined) throw new Problem(400, `${field} is required.`, field);
    }
    if (!/^\d{5}$/.test(String(body.entryFacilityZIPCode)))
      throw new Problem(400, 'entryFacilityZIPCode must be 5 digits.', 'entryFacilityZIPCode');
    const from = checkAddress(body.fromAddress, 'fromAddress', { person: true });
    const shipment = body.shipment as { trackingNumbers?: unknown };
    const numbers = shipment?.trackingNumbers;
    if (!Array.isArray(numbers) || numbers.length === 0)
      throw new Problem(400, 'shipment.trackingNumbers is required.', 'shipment.trackingNumbers');
    const info = (body.imageInfo ?? {}) as Record<string, unknown>;
    if (info.imageType !== undefined && info.imageType !== 'PDF')
      throw new Problem(400, 'The fake makes PDF SCAN forms only.', 'imageInfo.imageType');
    for (const n of numbers) {
      const l = labels.get(String(n));
      if (l?.state !== 'active')
        throw new Problem(400, `Label ${String(n)} was not found or is canceled.`, 'shipment.trackingNumbers');
      if (l.manifested)
        throw new Problem(400, `Label ${String(n)} has already been added to a SCAN Form.`, 'shipment.trackingNumbers');
    }
    forms += 1;
    // An Electronic File Number, 22 digits like the example's "9475038234567000031430".
    const efn = `9475${credentials.mid}${String(forms).padStart(22 - 4 - credentials.mid.length, '0')}`;
    for (const n of numbers) {
      const l = labels.get(String(n)) as FakeUspsLabel;
      l.manifested = true;
    }
    const pdf = await renderScanForm({
      formId: efn,
      from: addressOf(from),
      shipDate: new Date(`${String(body.mailingDate)}T12:00:00Z`),
      trackingNumbers: numbers.map(String),
      issuer: 'USPS',
    });

    const metadata = {
      imageInfo: { imageType: 'PDF', labelType: '8.5X11LABEL' },
      mailingDate: body.mailingDate,
      overwriteMailingDate: body.overwriteMailingDate ?? false,
      entryFacilityZIPCode: body.entryFacilityZIPCode,
      destinationEntryFacilityType: body.destinationEntryFacilityType,
      shipment: { trackingNumbers: numbers },
      fromAddress: body.fromAddress,
      manifestNumber: efn,
      trackingNumbers: numbers,
    };
    if (prefers(req, 'application/vnd.usps.labels+json')) {
      return send(
        res,
        200,
        { ...metadata, SCANFormImage: pdf.toString('base64') },
        { 'content-type': 'application/vnd.usps.labels+json' },
      );
    }
    const boundary = `scan-${randomBytes(10).toString('hex')}`;
    res.writeHead(200, { 'content-type': `multipart/form-data; boundary=${boundary}` }).end(
      buildMultipart(boundary, [
        {
          headers: { 'Content-Disposition': 'form-data; name="SCANFormMetaData"', 'Content-Type': 'application/json' },
          body: JSON.stringify(metadata),
        },
        {
          headers: {
            'Content-Disposition': 'form-data; name="SCANFormImage"; filename="SCANForm.pdf"',
            'Content-Type': 'application/pdf',
          },
          body: pdf.toString('base64'),
        },
      ]),
    );
  }

  // ---- tracking -------------------------------------------------------------------------------------------------

  function track(res: ServerResponse, url: URL) {
    const number = decodeURIComponent(url.pathname.split('/').pop() ?? '');
    const expand = url.searchParams.get('expand') ?? 'SUMMARY';
    if (!['SUMMARY', 'DETAIL'].includes(expand)) throw new Problem(400, 'expand must be SUMMARY or DETAIL.', 'expand');
    const scripted = tracking.get(number);
    const l = labels.get(number);
    if (!scripted && !l)
      throw new Problem(
        404,
        'The tracking number may be incorrect or the status update is not yet available.',
        'trackingNumber',
      );
    const created = l ? String(l.metadata.mailingDate).slice(0, 10) : isoDay(now());
    const details: Record<string, unknown> = scripted ?? {
      trackingNumber: number,
      mailClass: l?.mailClass,
      statusCategory: 'Pre-Shipment',
      status: 'Shipping Label Created, USPS Awaiting Item',
      statusSummary: 'A shipping label has been prepared for your item, but USPS has not yet received it.',
      trackingEvents: [
        {
          eventType: 'Shipping Label Created, USPS Awaiting Item',
          eventTimestamp: `${created}T09:15:00`,
          GMTTimestamp: `${created}T14:15:00.000Z`,
          GMTOffset: '-5:00',
          eventCountry: 'US',
          eventCity: 'WASHINGTON',
          eventState: 'DC',
          eventZIP: '20024',
          eventCode: 'GX',
        },
      ],
    };
    if (expand === 'DETAIL') return send(res, 200, { trackingNumber: number, ...details });
    const events = Array.isArray(details.trackingEvents) ? (details.trackingEvents as Record<string, unknown>[]) : [];
    return send(res, 200, {
      trackingNumber: number,
      eventSummaries: events.map((e) =>
        `${String(e.eventType)}, ${String(e.eventCity ?? '')} ${String(e.eventState ?? '')}`.trim(),
      ),
    });
  }

  return {
    url,
    credentials,
    get purchases() {
      return purchases;
    },
    labels,
    requests,
    get balanceCents() {
      return balanceCents;
    },
    count: (route) => requests.filter((r) => r.route === route).length,
    fail(route, ...more) {
      faults.set(route, [...(faults.get(route) ?? []), ...more]);
    },
    expireTokens() {
      const t = now();
      for (const token of accessTokens.keys()) accessTokens.set(token, t);
    },
    expirePaymentTokens() {
      const t = now();
      for (const token of paymentTokens.keys()) paymentTokens.set(token, t);
    },
    setRateLimit(perSecond, retryAfterS = 1) {
      rateLimit = perSecond === null ? null : { perSecond, retryAfterS };
      recentPurchases.length = 0;
    },
    setLabelAnswerStyle(style) {
      labelStyle = style;
    },
    setBalance(cents) {
      balanceCents = cents;
    },
    manifest(trackingNumber) {
      const l = labels.get(trackingNumber);
      if (l) l.manifested = true;
    },
    markUsed(trackingNumber) {
      const l = labels.get(trackingNumber);
      if (l) l.used = true;
    },
    setTracking(trackingNumber, details) {
      tracking.set(trackingNumber, details);
    },
    async close() {
      for (const res of stalled) res.destroy();
      stalled.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
