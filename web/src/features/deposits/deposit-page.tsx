import '../shell/user-area';
import { useEffect } from 'react';
import { formatAmount, formatUnixSeconds } from '../../app/format';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { type Column, DataTable } from '../../components/data-table';
import { WalletIcon } from '../../components/icons';
import { Spinner } from '../../components/spinner';
import { selectUser } from '../auth/auth-selectors';
import { depositStatusTone } from '../dashboard/dashboard-page';
import { ReferralBonusTag } from '../referral-bonus/bonus-state';
import { DEPOSITS_PAGE_SIZE, type Deposit } from './deposits-api';
import {
  selectDeposits,
  selectDepositsLoading,
  selectDepositsPage,
  selectDepositsTotal,
  selectIsToppingUp,
} from './deposits-selectors';
import { depositsRequested, topUpRequested } from './deposits-slice';
import './deposits.css';

/** A top-up invoice has no amount until it is paid: show none rather than $0. */
export function hasNoAmountYet(deposit: Deposit): boolean {
  return Number(deposit.amount) === 0 && deposit.status !== 'Settled';
}

const columns: Column<Deposit>[] = [
  {
    key: 'amount',
    header: 'Amount',
    align: 'right',
    render: (d) =>
      hasNoAmountYet(d) ? (
        <span className="deposits__no-amount">
          <span aria-hidden="true">—</span>
          <span className="visually-hidden">Not paid yet</span>
        </span>
      ) : (
        <>
          {formatAmount(d.amount)}
          {/* A bonus credited to the balance is listed with the deposits, and says what it is. */}
          {d.kind === 'referral_bonus' ? <ReferralBonusTag description={d.description} /> : null}
        </>
      ),
  },
  { key: 'date', header: 'Date', className: 'data-table__nowrap', render: (d) => formatUnixSeconds(d.createdTime) },
  {
    key: 'status',
    header: 'Status',
    // The text travels with the colour, so the status never depends on seeing colour.
    render: (d) =>
      d.status ? (
        <span className={`deposit-status deposit-status--${depositStatusTone(d.status)}`}>{d.status}</span>
      ) : (
        ''
      ),
  },
];

export function DepositPage() {
  const dispatch = useAppDispatch();
  const userId = useAppSelector(selectUser)?._id ?? null;
  const deposits = useAppSelector(selectDeposits);
  const totalCount = useAppSelector(selectDepositsTotal);
  const page = useAppSelector(selectDepositsPage);
  const isLoading = useAppSelector(selectDepositsLoading);
  const isToppingUp = useAppSelector(selectIsToppingUp);

  useEffect(() => {
    if (userId) dispatch(depositsRequested({ userId, page: 1 }));
  }, [userId, dispatch]);

  return (
    <section className="card deposits" aria-labelledby="deposits-heading" aria-busy={isLoading || undefined}>
      <div className="deposits__head">
        <div>
          <h2 id="deposits-heading" className="deposits__title">
            Deposit History
          </h2>
          <p className="deposits__lead">Top up your balance with Bitcoin; paid invoices are added to it.</p>
        </div>
        <button
          type="button"
          className="button button--primary deposits__pay"
          disabled={isToppingUp}
          aria-busy={isToppingUp || undefined}
          onClick={() => dispatch(topUpRequested(userId))}
        >
          {isToppingUp ? <Spinner size={16} /> : <WalletIcon />}
          <span>Pay with BTCPay</span>
        </button>
      </div>
      <DataTable
        caption="Deposit History"
        columns={columns}
        rows={deposits}
        rowKey={(d, i) => d._id || `${d.createdTime}-${i}`}
        pageSize={DEPOSITS_PAGE_SIZE}
        page={page}
        totalRows={totalCount}
        onPageChange={(next) => userId && dispatch(depositsRequested({ userId, page: next }))}
        emptyText="No deposit found"
        isLoading={isLoading && deposits.length === 0}
        loadingText="Loading deposits..."
      />
    </section>
  );
}
