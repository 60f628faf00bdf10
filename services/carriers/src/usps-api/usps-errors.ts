/**
 * USPS's error answers, read for the adapter's decisions and for the log. Every v3 spec declares the same
 * `ErrorMessage`: `{ apiVersion, error: { code, message, errors: [{ status, code, title, detail, source: {
 * parameter, example } }] } }`. None of its words reach a customer: the adapter maps them onto the catalogue
 * (`carrier-messages.ts`) and logs them as they are.
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
  const root = (parsed ?? {}) as Record<string, unknown>;
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
