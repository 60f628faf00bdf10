import {
  type CarrierHttp,
  CarrierHttpError,
  type CarrierHttpRequest,
  type CarrierHttpResponse,
} from '../http/carrier-http';
import type { UspsSettings } from './config';
import { createTokenCache, type IssuedToken, jwtExpiry, type TokenCache } from './token-cache';
import { describeUspsError, loggableError, readUspsError, type UspsError } from './usps-errors';

/** Where the adapter writes what USPS said; a service passes its logger (the kit's pino logger scrubs lines too). */
export interface CarrierLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: CarrierLogger = { info() {}, warn() {}, error() {} };

/** USPS would not give a token: its credentials or payment roles were refused, or it did not answer usefully. */
export class UspsAuthError extends Error {
  constructor(
    /** `oauth` or `payment`. */
    readonly token: 'oauth' | 'payment',
    /** `refused`: USPS said no (4xx); `unavailable`: no usable answer (5xx, time-out, unreadable). */
    readonly kind: 'refused' | 'unavailable',
    readonly status: number,
    readonly error?: UspsError,
  ) {
    super(
      `USPS ${token} token ${kind === 'refused' ? `refused (HTTP ${status})` : 'unavailable'}${error ? `: ${describeUspsError(error)}` : ''}`,
    );
    this.name = 'UspsAuthError';
  }
}

/** Payment Authorization Tokens "are valid for eight hours after issuance" (payments.yaml). */
const PAYMENT_TOKEN_LIFETIME_MS = 8 * 3600_000;
/** An access token whose answer says nothing of its life is kept this long. */
const FALLBACK_OAUTH_LIFETIME_MS = 30 * 60_000;

export interface UspsSession {
  /**
   * One call with the OAuth bearer token and, with `payment`, the Payment Authorization Token. A 401 drops the
   * tokens it was sent with, gets new ones (shared with every caller refused at the same time) and sends the call
   * once more; a second 401 is the answer.
   */
  call(req: CarrierHttpRequest & { payment?: boolean }): Promise<CarrierHttpResponse>;
  oauthToken(): Promise<string>;
  paymentToken(): Promise<string>;
  /** Forgets both tokens. */
  clear(): void;
}

export function createUspsSession(deps: {
  http: CarrierHttp;
  settings: Pick<UspsSettings, 'clientId' | 'clientSecret' | 'crid' | 'mid' | 'manifestMid' | 'epsAccount'>;
  log: CarrierLogger;
  now?: () => number;
}): UspsSession {
  const { http, settings, log } = deps;
  const now = deps.now ?? Date.now;

  const oauth: TokenCache = createTokenCache({ now, issue: issueAccessToken });
  const payment: TokenCache = createTokenCache({ now, issue: issuePaymentToken });

  async function issueAccessToken(): Promise<IssuedToken> {
    // No OAuth spec is among USPS's v3 specs; every one names /oauth2/v3/token as its client-credentials token URL
    // (payments.yaml alone says /oauth2/token, while its own text says the v3 OAuth API "must be used to get tokens
    // for all V3 APIs"). The request is RFC 6749 §4.4.2's form; USPS's Postman example sends the same fields as JSON.
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: settings.clientId,
      client_secret: settings.clientSecret,
    });
    const res = await tokenCall('oauth', {
      operation: 'oauth',
      method: 'POST',
      path: '/oauth2/v3/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      retry: 'safe',
    });
    const answer = readJson(res, 'oauth') as { access_token?: unknown; expires_in?: unknown };
    if (typeof answer.access_token !== 'string' || answer.access_token === '') {
      log.error({ operation: 'oauth', status: res.status }, 'USPS token answer has no access_token');
      throw new UspsAuthError('oauth', 'unavailable', res.status);
    }
    const seconds = Number(answer.expires_in);
    const expiresAt =
      Number.isFinite(seconds) && seconds > 0
        ? now() + seconds * 1000
        : (jwtExpiry(answer.access_token) ?? now() + FALLBACK_OAUTH_LIFETIME_MS);
    return { value: answer.access_token, expiresAt };
  }

  async function issuePaymentToken(): Promise<IssuedToken> {
    // payments.yaml's MinimumPaymentAuthorizationRequest: PAYER (EPS account) and LABEL_OWNER (label ranges), both
    // with CRID, MID and manifestMID. The text asks only accountType and CRID of a PAYER; the example gives all.
    const body = {
      roles: [
        {
          roleName: 'PAYER',
          CRID: settings.crid,
          MID: settings.mid,
          manifestMID: settings.manifestMid,
          accountType: 'EPS',
          accountNumber: settings.epsAccount,
        },
        { roleName: 'LABEL_OWNER', CRID: settings.crid, MID: settings.mid, manifestMID: settings.manifestMid },
      ],
    };
    const issuedAt = now();
    const res = await authorized(
      { operation: 'payment_auth', method: 'POST', path: '/payments/v3/payment-authorization', body, retry: 'safe' },
      false,
    );
    if (res.status !== 200 && res.status !== 201) {
      const error = readUspsError(res.status, res.body);
      log.error({ operation: 'payment_auth', usps: loggableError(error) }, 'USPS refused the payment authorization');
      throw new UspsAuthError('payment', res.status >= 500 ? 'unavailable' : 'refused', res.status, error);
    }
    const answer = readJson(res, 'payment_auth') as { paymentAuthorizationToken?: unknown };
    const token = answer.paymentAuthorizationToken;
    if (typeof token !== 'string' || token === '') {
      log.error({ operation: 'payment_auth', status: res.status }, 'USPS payment answer has no token');
      throw new UspsAuthError('payment', 'unavailable', res.status);
    }
    return { value: token, expiresAt: jwtExpiry(token) ?? issuedAt + PAYMENT_TOKEN_LIFETIME_MS };
  }

  /** A call to the token endpoint: a refusal is the credentials' fault and is logged without what was sent. */
  async function tokenCall(which: 'oauth', req: CarrierHttpRequest): Promise<CarrierHttpResponse> {
    let res: CarrierHttpResponse;
    try {
      res = await http.request(req);
    } catch (err) {
      log.error({ operation: req.operation, reason: describe(err) }, 'USPS token endpoint did not answer');
      throw new UspsAuthError(which, 'unavailable', err instanceof CarrierHttpError ? err.status : 0);
    }
    if (res.status >= 400) {
      const error = readUspsError(res.status, res.body);
      log.error({ operation: req.operation, usps: loggableError(error) }, 'USPS refused the client credentials');
      throw new UspsAuthError(which, 'refused', res.status, error);
    }
    return res;
  }

  function readJson(res: CarrierHttpResponse, operation: string): Record<string, unknown> {
    try {
      const v = res.json();
      if (typeof v === 'object' && v !== null) return v as Record<string, unknown>;
    } catch {}
    // Not the body itself: a half-readable token answer may hold the token.
    log.error(
      { operation, status: res.status, bytes: res.body.length, contentType: res.headers.get('content-type') },
      'USPS token answer is not readable',
    );
    throw new UspsAuthError(operation === 'oauth' ? 'oauth' : 'payment', 'unavailable', res.status);
  }

  async function authorized(req: CarrierHttpRequest, withPayment: boolean): Promise<CarrierHttpResponse> {
    const send = async (bearer: string, pay: string | undefined) =>
      http.request({
        ...req,
        headers: {
          ...req.headers,
          authorization: `Bearer ${bearer}`,
          ...(pay === undefined ? {} : { 'x-payment-authorization-token': pay }),
        },
      });
    const bearer = await oauth.get();
    const pay = withPayment ? await payment.get() : undefined;
    const first = await send(bearer, pay);
    if (first.status !== 401) return first;
    log.info({ operation: req.operation }, 'USPS answered 401: new tokens, one more try');
    // Which of the two tokens was refused is not said; both are replaced, once each.
    const newBearer = await oauth.refused(bearer);
    const newPay = pay === undefined ? undefined : await payment.refused(pay);
    return send(newBearer, newPay);
  }

  return {
    call: (req) => authorized(req, req.payment === true),
    oauthToken: () => oauth.get(),
    paymentToken: () => payment.get(),
    clear() {
      oauth.clear();
      payment.clear();
    },
  };
}

/** An error as the log may hold it: its kind and our message, never a body or a header. */
export function describe(err: unknown): Record<string, unknown> {
  if (err instanceof CarrierHttpError) return { kind: err.kind, status: err.status, message: err.message };
  if (err instanceof UspsAuthError) return { kind: err.kind, token: err.token, status: err.status };
  if (err instanceof Error) return { name: err.name, message: err.message };
  return { message: String(err) };
}
