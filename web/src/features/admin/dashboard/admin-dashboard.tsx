import '../admin-area';
import { useEffect } from 'react';
import { formatDateTime, formatMoney } from '../../../app/format';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { Loader, Spinner } from '../../../components/spinner';
import type { CarrierBalanceReply } from './admin-dashboard-api';
import {
  type AdminDashboardState,
  adminDashboardClosed,
  adminDashboardOpened,
  selectAdminDashboard,
} from './admin-dashboard-slice';
import { CarrierConnectionCheck } from './carrier-connection-check';
import { CarrierRoutes } from './carrier-routes';
import './admin-dashboard.css';

/** "Carrier balance is low: below $100.00. …", naming the low accounts when there are several. */
export function lowBalanceWarning(reply: CarrierBalanceReply): string {
  const low = reply.carriers.filter((c) => c.isLow).map((c) => c.name);
  const limit = formatMoney(reply.warnBelow);
  const which =
    reply.carriers.length > 1 && low.length > 0
      ? `${low.join(', ')} ${low.length === 1 ? 'is' : 'are'} below ${limit}`
      : `below ${limit}`;
  return `Carrier balance is low: ${which}. Top up the carrier account, or label purchases will start to fail.`;
}

/** What is left on the platform's carrier accounts: the labels customers buy are paid from it. */
function CarrierBalanceCard({ state }: { state: AdminDashboardState['carrierBalance'] }) {
  const { reply, isLoading, error } = state;
  return (
    <section
      className={`card admin-dashboard__balance${reply?.isLow ? ' admin-dashboard__balance--low' : ''}`}
      aria-labelledby="admin-carrier-balance-heading"
      aria-busy={isLoading || undefined}
    >
      <h2 id="admin-carrier-balance-heading" className="admin-dashboard__label">
        Carrier balance
      </h2>
      {isLoading && !reply ? (
        <p className="admin-dashboard__note admin-dashboard__balance-loading">
          <Spinner size={16} /> Loading carrier balance…
        </p>
      ) : null}
      {reply ? (
        <>
          <p className="admin-dashboard__value">{formatMoney(reply.balance)}</p>
          {reply.carriers.length > 1 ? (
            <ul className="admin-dashboard__accounts" aria-label="Carrier accounts">
              {reply.carriers.map((c) => (
                <li key={c.id} className="admin-dashboard__account">
                  <span>{c.name}</span>
                  <span>{formatMoney(c.balance)}</span>
                  {c.isLow ? <span className="admin-dashboard__low"> low</span> : null}
                </li>
              ))}
            </ul>
          ) : null}
          {reply.isLow ? (
            <p className="admin-dashboard__warning">{lowBalanceWarning(reply)}</p>
          ) : (
            <p className="admin-dashboard__note">Warns below {formatMoney(reply.warnBelow)}</p>
          )}
        </>
      ) : null}
      {error ? (
        <p className="admin-dashboard__error" role="alert">
          {error}
        </p>
      ) : null}
      <CarrierRoutes />
      <CarrierConnectionCheck />
    </section>
  );
}

/**
 * The live admin dashboard, at /admin/dashboard and /main/admin: the carrier
 * balance, users, labels, revenue, deposits, running bulk orders, failures and
 * the latest activity, read again every 30 s while on screen.
 */
export function AdminDashboard() {
  const dispatch = useAppDispatch();
  const { carrierBalance } = useAppSelector(selectAdminDashboard);

  useEffect(() => {
    dispatch(adminDashboardOpened());
    return () => {
      dispatch(adminDashboardClosed());
    };
  }, [dispatch]);

  return (
    <div className="admin-dashboard">
      <CarrierBalanceCard state={carrierBalance} />
      <DashboardFigures />
    </div>
  );
}

function DashboardFigures() {
  const { figures, isLoading, error } = useAppSelector(selectAdminDashboard);
  if (isLoading) return <Loader label="Loading dashboard…" />;
  if (!figures) {
    return (
      <p className="admin-dashboard__error" role="alert">
        {error}
      </p>
    );
  }

  const stats = [
    { label: 'Users', value: String(figures.users.total), note: `${figures.users.newThisMonth} new this month` },
    { label: 'Labels today', value: String(figures.labels.today) },
    { label: 'Labels this month', value: String(figures.labels.thisMonth) },
    {
      label: 'Revenue today',
      value: formatMoney(figures.revenue.today),
      note: `Cost ${formatMoney(figures.cost.today)} · margin ${formatMoney(figures.margin.today)}`,
    },
    {
      label: 'Revenue this month',
      value: formatMoney(figures.revenue.thisMonth),
      note: `Cost ${formatMoney(figures.cost.thisMonth)} · margin ${formatMoney(figures.margin.thisMonth)}`,
    },
    {
      label: 'Deposits this month',
      value: formatMoney(figures.deposits.thisMonth),
      note: `${figures.deposits.countThisMonth} settled`,
    },
    { label: 'Running bulk orders', value: String(figures.runningBulkOrders) },
    { label: 'Failed labels today', value: String(figures.labels.failedToday) },
  ];

  return (
    <>
      {error ? (
        <p className="admin-dashboard__error" role="alert">
          {error}
        </p>
      ) : null}
      <dl className="admin-dashboard__stats" aria-label="Figures">
        {stats.map((s) => (
          <div key={s.label} className="card admin-dashboard__stat">
            <dt className="admin-dashboard__label">{s.label}</dt>
            <dd className="admin-dashboard__value">{s.value}</dd>
            {s.note ? <dd className="admin-dashboard__note">{s.note}</dd> : null}
          </div>
        ))}
      </dl>
      <section className="card admin-dashboard__activity" aria-labelledby="admin-activity-heading">
        <h2 id="admin-activity-heading" className="admin-dashboard__title">
          Recent Activity
        </h2>
        {figures.activity.length === 0 ? (
          <p className="admin-dashboard__empty">No activity yet.</p>
        ) : (
          <ul className="admin-dashboard__list">
            {figures.activity.map((a) => (
              <li
                key={`${a.kind}-${a.at}-${a.text}`}
                className={`admin-dashboard__item admin-dashboard__item--${a.kind}`}
              >
                <span>{a.text}</span>
                <time className="admin-dashboard__when" dateTime={a.at}>
                  {formatDateTime(a.at)}
                </time>
              </li>
            ))}
          </ul>
        )}
        <p className="admin-dashboard__updated">Updated {formatDateTime(figures.generatedAt)}</p>
      </section>
    </>
  );
}
