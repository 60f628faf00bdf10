import {
  centsToDollars,
  DEPOSITS_DEFAULT_QUERY,
  type Deposit,
  type DepositsQuery,
  type DepositsReply,
  RECENT_DEPOSITS_MAX,
} from '@flatship/proto';
import type { DepositHistoryLine, DepositsRepo } from './ports';
import { REFERRAL_BONUS_LABEL } from './referral-bonus-texts';
import { isUserId } from './rules';

const toDeposit = (d: DepositHistoryLine): Deposit => ({
  _id: d.id,
  amount: centsToDollars(d.amountCents),
  createdTime: Math.floor(d.createdAt.getTime() / 1000),
  status: d.status,
  ...(d.kind === 'referral_bonus' ? { kind: d.kind, description: d.memo ?? REFERRAL_BONUS_LABEL } : {}),
});

/** The dashboard's list: newest first, a handful. */
export async function listRecentDeposits(deps: { deposits: DepositsRepo }, userId: string): Promise<Deposit[]> {
  if (!isUserId(userId)) return [];
  const rows = await deps.deposits.list(userId, { filter: 'all', offset: 0, limit: RECENT_DEPOSITS_MAX });
  return rows.map(toDeposit);
}

/** The deposit history page, paged by the server. */
export async function listDeposits(
  deps: { deposits: DepositsRepo },
  userId: string,
  query: DepositsQuery,
): Promise<DepositsReply> {
  if (!isUserId(userId)) return { deposits: [], totalCount: 0 };
  const page = query.page ?? DEPOSITS_DEFAULT_QUERY.page;
  const limit = query.limit ?? DEPOSITS_DEFAULT_QUERY.limit;
  const filter = query.filter ?? DEPOSITS_DEFAULT_QUERY.filter;
  const [rows, totalCount] = await Promise.all([
    deps.deposits.list(userId, { filter, offset: (page - 1) * limit, limit }),
    deps.deposits.count(userId, filter),
  ]);
  return { deposits: rows.map(toDeposit), totalCount };
}
