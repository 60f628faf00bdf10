import { DEPOSITS_DEFAULT_QUERY, type Deposit, type DepositsReply, type TopUpReply } from '@flatship/proto';
import { getJson } from '../../app/http';
import { queryString } from '../../app/query-string';

export type { Deposit, DepositsReply, TopUpReply };

/** Spec doc 2 §9: the deposit list asks for 7 rows a page. */
export const DEPOSITS_PAGE_SIZE = DEPOSITS_DEFAULT_QUERY.limit;

/** Whoever has no session tops up as a guest (spec doc 2 §7). */
export const GUEST_USER_ID = 'guest';

/** A list reply read defensively: anything missing reads as empty. */
function depositsOf(reply: unknown): DepositsReply {
  const body = reply && typeof reply === 'object' ? (reply as Partial<DepositsReply>) : {};
  const deposits = Array.isArray(body.deposits) ? body.deposits : [];
  const totalCount = Number.isFinite(body.totalCount) ? Number(body.totalCount) : deposits.length;
  return { deposits, totalCount };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The top-up reply must name an invoice and a checkout page whose origin serves the modal. */
export function isTopUpReply(reply: unknown): reply is TopUpReply {
  if (!reply || typeof reply !== 'object') return false;
  const { id, checkoutLink } = reply as Record<string, unknown>;
  return typeof id === 'string' && id.trim() !== '' && typeof checkoutLink === 'string' && isHttpUrl(checkoutLink);
}

export const depositsApi = {
  /** GET /api/payment/deposits/{userId}?page&limit=7&filter=all, newest first. */
  list: async (userId: string, page: number): Promise<DepositsReply> => {
    const query = queryString({ page, limit: DEPOSITS_PAGE_SIZE, filter: DEPOSITS_DEFAULT_QUERY.filter });
    return depositsOf(await getJson<unknown>(`payment/deposits/${encodeURIComponent(userId)}?${query}`));
  },
  /** GET /api/payment/top-up/{userId or guest}: a new invoice; the reply is checked by the caller. */
  topUp: (userId: string) => getJson<unknown>(`payment/top-up/${encodeURIComponent(userId)}`),
};
