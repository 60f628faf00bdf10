/**
 * USPS's error answers, read for the adapter's decisions and for the log. Every v3 spec declares the same
 * `ErrorMessage`: `{ apiVersion, error: { code, message, errors: [{ status, code, title, detail, source: {
 * parameter, example } }] } }`. None of its words reach a customer: the adapter maps them onto the catalogue
 * (`carrier-messages.ts`) and logs them as they are.
 *
 * The token endpoint (`/oauth2/v3/token`) answers in OAuth's own shape instead (RFC 6749 §5.2):
 * `{ error: 'invalid_client', error_description: 'Client authentication failed.' }`. Both are read.
 */

export interface UspsErrorItem {
  status?: string;
  code?: string;
  title?: string;
  detail?: string;
  parameter?: string;
}

export interface UspsError {
  /** The HTTP status of the answer. */
  status: number;
  /** `error.code`: the status again, as a string, in every example. */
  code?: string;
  message?: string;
  errors: UspsErrorItem[];
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The error in an answer's body; what can be read of it when it is not the documented shape. */
export function readUspsError(status: number, body: Buffer | string): UspsError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch {
    return { status, errors: [] };
  }
  const root = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  if (typeof root.error === 'string') {
    // OAuth's error answer: the code in `error`, the words in `error_description`.
    return { status, code: str(root.error), message: str(root.error_description), errors: [] };
  }
  const error = (typeof root.error === 'object' && root.error !== null ? root.error : root) as Record<string, unknown>;
  const items = Array.isArray(error.errors) ? error.errors : [];
  return {
    status,
    code: str(error.code) ?? (typeof error.code === 'number' ? String(error.code) : undefined),
    message: str(error.message),
    errors: items
      .filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null)
      .map((e) => {
        const source = (typeof e.source === 'object' && e.source !== null ? e.source : {}) as Record<string, unknown>;
        return {
          status: str(e.status),
          code: str(e.code),
          title: str(e.title),
          detail: str(e.detail),
          parameter: str(source.parameter),
        };
      }),
  };
}

/**
 * USPS's words in an error, as one line for a log or an exception: `invalid_client: Client authentication failed.`,
 * `400: Bad Request (Invalid ZIP: ZIPCode is invalid)`; the status alone when it said nothing.
 */
export function describeUspsError(error: UspsError): string {
  const head = [error.code, error.message].filter((s): s is string => !!s).join(': ');
  const items = error.errors
    .slice(0, 3)
    .map((e) => [e.title, e.detail].filter((s): s is string => !!s).join(': '))
    .filter((s) => s !== '');
  if (!head && items.length === 0) return `HTTP ${error.status}`;
  const said = items.length === 0 ? head : head ? `${head} (${items.join('; ')})` : items.join('; ');
  return said.slice(0, 500);
}

/** All of USPS's words in an error, lower case, for matching. */
export function errorText(error: UspsError): string {
  return [error.message, ...error.errors.flatMap((e) => [e.title, e.detail])]
    .filter((s): s is string => !!s)
    .join(' | ')
    .toLowerCase();
}

/** The parameters USPS blamed, as given (`toAddress.ZIPCode`, `packageDescription.weight`, `trackingNumber`). */
export function blamedParameters(error: UspsError): string[] {
  return error.errors.map((e) => e.parameter).filter((p): p is string => !!p);
}

/** What the log gets of an error: USPS's words, never a body that might carry a token. */
export function loggableError(error: UspsError): Record<string, unknown> {
  return {
    status: error.status,
    said: describeUspsError(error),
    code: error.code,
    message: error.message?.slice(0, 500),
    errors: error.errors.slice(0, 10).map((e) => ({
      code: e.code,
      title: e.title?.slice(0, 200),
      detail: e.detail?.slice(0, 500),
      parameter: e.parameter,
    })),
  };
}
