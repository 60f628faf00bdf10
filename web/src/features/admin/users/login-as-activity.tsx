import type { AuditEntry } from '@flatship/proto';
import { formatDateTime } from '../../../app/format';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { Pagination } from '../../../components/pagination';
import { Spinner } from '../../../components/spinner';
import { ADMIN_USERS_MESSAGES, AUDIT_PAGE_SIZE } from './admin-users-messages';
import { selectAudit } from './admin-users-selectors';
import { auditRequested } from './admin-users-slice';

const who = (email: string | null, id: string) => email ?? id;

/** 2xx and 3xx answers went through; anything else was refused or failed. */
const isSuccess = (status: number) => status < 400;

function ActivityRow({ entry }: { entry: AuditEntry }) {
  return (
    <tr>
      <td>{formatDateTime(entry.at)}</td>
      <td title={entry.adminId}>{who(entry.adminEmail, entry.adminId)}</td>
      <td title={entry.userId}>{who(entry.userEmail, entry.userId)}</td>
      <td className="login-as-activity__action">
        {entry.method} {entry.path}
      </td>
      <td>
        <span className={`user-table__badge user-table__badge--${isSuccess(entry.status) ? 'allow' : 'block'}`}>
          {entry.status}
        </span>
      </td>
    </tr>
  );
}

/** What admins did while signed in as a user (Login As), newest first, for everyone or one user. */
export function LoginAsActivity() {
  const dispatch = useAppDispatch();
  const { page, filter, status, reply } = useAppSelector(selectAudit);
  const pageCount = reply ? Math.max(1, Math.ceil(reply.totalCount / AUDIT_PAGE_SIZE)) : 1;

  return (
    <section className="login-as-activity" aria-labelledby="login-as-activity-title">
      <div className="login-as-activity__bar">
        <h3 id="login-as-activity-title" className="login-as-activity__title">
          Login As activity
        </h3>
        {filter ? (
          <p className="login-as-activity__filter">
            Showing {filter.label}
            <button
              type="button"
              className="button button--ghost user-table__small"
              onClick={() => dispatch(auditRequested({ filter: null }))}
            >
              Show all users
            </button>
          </p>
        ) : null}
      </div>

      {status === 'failed' ? (
        <div className="card user-management__state">
          <p className="alert alert--error">{ADMIN_USERS_MESSAGES.auditFailed}</p>
          <button type="button" className="button button--primary" onClick={() => dispatch(auditRequested({}))}>
            Try again
          </button>
        </div>
      ) : null}

      {status === 'loading' && !reply ? (
        <div className="card user-management__state" role="status">
          <Spinner /> Loading activity…
        </div>
      ) : null}

      {reply && status !== 'failed' ? (
        <div className="card user-management__card" aria-busy={status === 'loading'}>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard to scroll it */}
          <section className="user-table__scroll" tabIndex={0} aria-label="Login As activity table">
            <table className="user-table">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Admin</th>
                  <th scope="col">User</th>
                  <th scope="col">Action</th>
                  <th scope="col">Result</th>
                </tr>
              </thead>
              <tbody>
                {reply.entries.length === 0 ? (
                  <tr>
                    <td colSpan={5} className="user-table__empty">
                      {ADMIN_USERS_MESSAGES.auditEmpty}
                    </td>
                  </tr>
                ) : null}
                {reply.entries.map((entry) => (
                  <ActivityRow key={entry._id} entry={entry} />
                ))}
              </tbody>
            </table>
          </section>
          <Pagination
            page={page}
            pageCount={pageCount}
            onChange={(next) => dispatch(auditRequested({ page: next }))}
            label="Activity pages"
          />
        </div>
      ) : null}
    </section>
  );
}
