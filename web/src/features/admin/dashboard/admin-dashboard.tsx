import '../admin-area';
import { useEffect } from 'react';
import { formatDateTime, formatMoney } from '../../../app/format';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { Loader } from '../../../components/spinner';
import { adminDashboardClosed, adminDashboardOpened, selectAdminDashboard } from './admin-dashboard-slice';
import './admin-dashboard.css';

/**
 * The live admin dashboard, at /admin/dashboard and /main/admin: users,
 * labels, revenue, deposits, running bulk orders, failures and the latest
 * activity, read again every 30 s while on screen.
 */
export function AdminDashboard() {
  const dispatch = useAppDispatch();
  const { figures, isLoading, error } = useAppSelector(selectAdminDashboard);

  useEffect(() => {
    dispatch(adminDashboardOpened());
    return () => {
      dispatch(adminDashboardClosed());
    };
  }, [dispatch]);

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
    { label: 'Revenue today', value: formatMoney(figures.revenue.today) },
    { label: 'Revenue this month', value: formatMoney(figures.revenue.thisMonth) },
    {
      label: 'Deposits this month',
      value: formatMoney(figures.deposits.thisMonth),
      note: `${figures.deposits.countThisMonth} settled`,
    },
    { label: 'Running bulk orders', value: String(figures.runningBulkOrders) },
    { label: 'Failed labels today', value: String(figures.labels.failedToday) },
  ];

  return (
    <div className="admin-dashboard">
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
    </div>
  );
}
