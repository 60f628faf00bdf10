import '../admin-area';
import {
  RANKING_LIMITS,
  RANKINGS_CUSTOM_DATES_MESSAGE,
  type RankingLimit,
  type RankingPeriod,
  type RankingRow,
  type RankingSort,
} from '@flatship/proto';
import { type ChangeEvent, useEffect } from 'react';
import { Link } from 'react-router';
import { formatDateTime, formatMoney } from '../../../app/format';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { queryString } from '../../../app/query-string';
import type { RootState } from '../../../app/store';
import { Spinner } from '../../../components/spinner';
import { RankingsChart } from './rankings-chart';
import { downloadCsv, rankingsCsv, rankingsCsvName } from './rankings-csv';
import { type RankingsControls, rankingsControlsChanged, rankingsRequested } from './rankings-slice';
import './rankings.css';

const PERIODS: { value: RankingPeriod; text: string }[] = [
  { value: 'day', text: 'Today' },
  { value: 'week', text: 'Last 7 days' },
  { value: 'month', text: 'This month' },
  { value: 'year', text: 'This year' },
  { value: 'custom', text: 'Custom' },
];

const SORTABLE: { sort: RankingSort; text: string }[] = [
  { sort: 'name', text: 'User' },
  { sort: 'labels', text: 'Labels' },
  { sort: 'revenue', text: 'Revenue' },
  { sort: 'averagePerDay', text: 'Avg / day' },
];

const selectRankings = (s: RootState) => s.rankings;

function SortHeader({
  sort,
  text,
  controls,
  onSort,
}: {
  sort: RankingSort;
  text: string;
  controls: RankingsControls;
  onSort: (sort: RankingSort) => void;
}) {
  const active = controls.sort === sort;
  const direction = controls.order === 'asc' ? 'ascending' : 'descending';
  return (
    <th scope="col" aria-sort={active ? direction : 'none'}>
      <button type="button" className="rankings__sort" onClick={() => onSort(sort)}>
        {text}
        <span aria-hidden="true">{active ? (controls.order === 'asc' ? ' ▲' : ' ▼') : ''}</span>
      </button>
    </th>
  );
}

/** User volume rankings (spec doc 3 §2): who bought the most labels in a period. */
export function RankingsPage() {
  const dispatch = useAppDispatch();
  const { controls, reply, isLoading } = useAppSelector(selectRankings);

  useEffect(() => {
    dispatch(rankingsRequested());
  }, [dispatch]);

  const change = (patch: Partial<RankingsControls>, fetch = true) => {
    dispatch(rankingsControlsChanged(patch));
    if (fetch) dispatch(rankingsRequested());
  };
  const onPeriod = (e: ChangeEvent<HTMLSelectElement>) => {
    const period = e.target.value as RankingPeriod;
    // A custom period waits for its dates and Apply.
    change({ period }, period !== 'custom');
  };
  const onSort = (sort: RankingSort) => {
    const order =
      controls.sort === sort ? (controls.order === 'asc' ? 'desc' : 'asc') : sort === 'name' ? 'asc' : 'desc';
    change({ sort, order });
  };
  const customIncomplete = controls.period === 'custom' && (!controls.startDate || !controls.endDate);
  const rows: RankingRow[] = reply?.rankings ?? [];

  return (
    <section className="card rankings" aria-labelledby="rankings-heading">
      <div className="rankings__head">
        <h2 id="rankings-heading">User Volume Rankings</h2>
        <button
          type="button"
          className="button button--ghost"
          disabled={rows.length === 0}
          onClick={() => downloadCsv(rankingsCsv(rows), rankingsCsvName(controls.period))}
        >
          Export CSV
        </button>
      </div>

      <div className="rankings__controls">
        <label className="field">
          <span className="field__label">Period</span>
          <select className="input" value={controls.period} onChange={onPeriod}>
            {PERIODS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.text}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field__label">Limit</span>
          <select
            className="input"
            value={controls.limit}
            onChange={(e) => change({ limit: Number(e.target.value) as RankingLimit })}
          >
            {RANKING_LIMITS.map((n) => (
              <option key={n} value={n}>
                Top {n}
              </option>
            ))}
          </select>
        </label>
        {controls.period === 'custom' ? (
          <>
            <label className="field">
              <span className="field__label">Start date</span>
              <input
                type="date"
                className="input"
                value={controls.startDate}
                onChange={(e) => change({ startDate: e.target.value }, false)}
              />
            </label>
            <label className="field">
              <span className="field__label">End date</span>
              <input
                type="date"
                className="input"
                value={controls.endDate}
                onChange={(e) => change({ endDate: e.target.value }, false)}
              />
            </label>
            <button type="button" className="button rankings__apply" onClick={() => dispatch(rankingsRequested())}>
              Apply
            </button>
          </>
        ) : null}
      </div>
      {customIncomplete ? (
        <p className="rankings__hint" role="note">
          {RANKINGS_CUSTOM_DATES_MESSAGE}
        </p>
      ) : null}

      {reply ? (
        <dl className="rankings__summary" aria-label="Summary">
          <div>
            <dt>Unique users</dt>
            <dd>{reply.summary.uniqueUsers}</dd>
          </div>
          <div>
            <dt>Total labels</dt>
            <dd>{reply.summary.totalLabels}</dd>
          </div>
          <div>
            <dt>Total revenue</dt>
            <dd>{formatMoney(reply.summary.totalRevenue)}</dd>
          </div>
          <div>
            <dt>Carrier cost</dt>
            <dd>{formatMoney(reply.summary.totalCost)}</dd>
          </div>
          <div>
            <dt>Margin</dt>
            <dd>{formatMoney(reply.summary.margin)}</dd>
          </div>
          <div>
            <dt>Period</dt>
            <dd>
              {reply.period.start} – {reply.period.end}
            </dd>
          </div>
        </dl>
      ) : null}

      {reply && reply.summary.totalLabels > 0 ? <RankingsChart days={reply.daily} /> : null}

      <div className="rankings__table-wrap" aria-busy={isLoading}>
        <table className="rankings__table">
          <caption className="visually-hidden">User volume rankings</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              {SORTABLE.slice(0, 1).map((h) => (
                <SortHeader key={h.sort} {...h} controls={controls} onSort={onSort} />
              ))}
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              {SORTABLE.slice(1, 3).map((h) => (
                <SortHeader key={h.sort} {...h} controls={controls} onSort={onSort} />
              ))}
              <th scope="col">Cost</th>
              <th scope="col">Margin</th>
              {SORTABLE.slice(3).map((h) => (
                <SortHeader key={h.sort} {...h} controls={controls} onSort={onSort} />
              ))}
              <th scope="col">First order</th>
              <th scope="col">Last order</th>
            </tr>
          </thead>
          <tbody>
            {isLoading && !reply ? (
              <tr>
                <td colSpan={11} className="rankings__state">
                  <Spinner /> Loading rankings...
                </td>
              </tr>
            ) : rows.length === 0 ? (
              <tr>
                <td colSpan={11} className="rankings__state">
                  No labels were bought in this period
                </td>
              </tr>
            ) : (
              rows.map((r, i) => (
                <tr key={r.userId}>
                  <td>{i + 1}</td>
                  <td>
                    <Link
                      className="rankings__name"
                      to={`/admin/order-label-management?${queryString({ userId: r.userId })}`}
                      title="Open this user's labels"
                    >
                      {r.userName || 'Deleted user'}
                    </Link>
                    <span className="rankings__email">{r.userEmail}</span>
                  </td>
                  <td>{r.userRole ?? ''}</td>
                  <td>{r.activation === 'block' ? 'Blocked' : r.activation === 'allow' ? 'Active' : ''}</td>
                  <td>{r.labelCount}</td>
                  <td>{formatMoney(r.totalRevenue)}</td>
                  <td>{formatMoney(r.totalCost)}</td>
                  <td className={r.margin < 0 ? 'rankings__negative' : undefined}>{formatMoney(r.margin)}</td>
                  <td>{r.averageLabelsPerDay.toFixed(2)}</td>
                  <td className="data-table__nowrap">{formatDateTime(r.firstOrderDate)}</td>
                  <td className="data-table__nowrap">{formatDateTime(r.lastOrderDate)}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
