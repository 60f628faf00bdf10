import '../shell/user-area';
import { useEffect } from 'react';
import { formatAmount, formatDateTime, formatMoney, formatUnixSeconds } from '../../app/format';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { CopyText } from '../../components/copy-text';
import { type Column, DataTable } from '../../components/data-table';
import { WalletIcon } from '../../components/icons';
import { selectUser } from '../auth/auth-selectors';
import { ReferralBonusTag } from '../referral-bonus/bonus-state';
import type { RecentDeposit, RecentOrder } from './dashboard-api';
import {
  selectDashboardLoading,
  selectRecentDeposits,
  selectRecentOrders,
  selectTotalOrders,
} from './dashboard-selectors';
import { dashboardRequested } from './dashboard-slice';
import './dashboard.css';

/** Spec doc 1 §9: the dashboard tables show 5 rows per page. */
const DASHBOARD_PAGE_SIZE = 5;

/** Settled blue, Expired yellow, any other non-empty status green. */
export function depositStatusTone(status: string | null | undefined): 'settled' | 'expired' | 'pending' | 'none' {
  if (!status) return 'none';
  if (status === 'Settled') return 'settled';
  if (status === 'Expired') return 'expired';
  return 'pending';
}

const orderColumns: Column<RecentOrder>[] = [
  { key: 'courier', header: 'Courier', render: (o) => <span className="dashboard__courier">{o.courier}</span> },
  { key: 'sender', header: 'Sender', render: (o) => o.sender?.sender_name ?? '' },
  { key: 'receiver', header: 'Receiver', render: (o) => o.receiver?.receiver_name ?? '' },
  { key: 'tracking', header: 'Tracking Number', render: (o) => <CopyText text={o.tracking_number ?? ''} /> },
  { key: 'created', header: 'Created', className: 'data-table__nowrap', render: (o) => formatDateTime(o.createdAt) },
];

const depositColumns: Column<RecentDeposit>[] = [
  {
    key: 'amount',
    header: 'Amount',
    render: (d) => (
      <>
        {formatAmount(d.amount)}
        {d.kind === 'referral_bonus' ? <ReferralBonusTag description={d.description} /> : null}
      </>
    ),
  },
  { key: 'date', header: 'Date', className: 'data-table__nowrap', render: (d) => formatUnixSeconds(d.createdTime) },
  {
    key: 'status',
    header: 'Status',
    render: (d) =>
      d.status ? <span className={`status-pill status-pill--${depositStatusTone(d.status)}`}>{d.status}</span> : '',
  },
];

function SummaryCard({ label, value, tone }: { label: string; value: string; tone: string }) {
  return (
    <div className={`card summary-card summary-card--${tone}`}>
      <span className="summary-card__label">{label}</span>
      <span className="summary-card__value">{value}</span>
    </div>
  );
}

export function DashboardPage() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const isLoading = useAppSelector(selectDashboardLoading);
  const totalOrders = useAppSelector(selectTotalOrders);
  const recentOrders = useAppSelector(selectRecentOrders);
  const recentDeposits = useAppSelector(selectRecentDeposits);
  const userId = user?._id;

  useEffect(() => {
    if (userId) dispatch(dashboardRequested(userId));
  }, [userId, dispatch]);

  return (
    <div className="dashboard">
      <div className="dashboard__greeting">
        <div>
          <h2 className="dashboard__welcome">Welcome back, {user?.name}</h2>
          <p className="dashboard__lead">Here is your balance and your latest shipping activity.</p>
        </div>
        <span className="dashboard__balance-chip">
          <WalletIcon /> {formatMoney(user?.balance)}
        </span>
      </div>

      <section className="dashboard__cards" aria-label="Account summary">
        <SummaryCard label="Balance" value={formatMoney(user?.balance)} tone="blue" />
        <SummaryCard label="Total Deposit" value={formatMoney(user?.totalDeposit)} tone="green" />
        <SummaryCard label="Total Orders" value={String(totalOrders)} tone="accent" />
        <SummaryCard label="Total Spent" value={formatMoney(user?.totalSpent)} tone="navy" />
      </section>

      <div className="dashboard__tables">
        <section className="card dashboard__panel" aria-labelledby="recent-orders-heading">
          <h2 id="recent-orders-heading" className="dashboard__panel-title">
            Recent Orders
          </h2>
          <DataTable
            caption="Recent Orders"
            columns={orderColumns}
            rows={recentOrders}
            rowKey={(o, i) => o._id ?? `${o.tracking_number}-${i}`}
            pageSize={DASHBOARD_PAGE_SIZE}
            emptyText="No orders found"
            isLoading={isLoading && recentOrders.length === 0}
          />
        </section>
        <section className="card dashboard__panel" aria-labelledby="recent-deposits-heading">
          <h2 id="recent-deposits-heading" className="dashboard__panel-title">
            Recent Deposits
          </h2>
          <DataTable
            caption="Recent Deposits"
            columns={depositColumns}
            rows={recentDeposits}
            rowKey={(d) => d._id}
            pageSize={DASHBOARD_PAGE_SIZE}
            emptyText="No deposit found"
            isLoading={isLoading && recentDeposits.length === 0}
          />
        </section>
      </div>
    </div>
  );
}
