import '../admin-area';
import {
  ADMIN_USERS_PAGE_SIZES,
  type AdminUserRow,
  type AdminUserSort,
  isValidChosenReferralCode,
  PASSWORD_RESET_TTL_MINUTES,
  REFERRAL_CODE_FORMAT_MESSAGE,
  ROLES,
  type Role,
} from '@flatship/proto';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { formatMoney } from '../../../app/format';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Pagination } from '../../../components/pagination';
import { Spinner } from '../../../components/spinner';
import { impersonationStarted } from '../../auth/auth-slice';
import { UserServicesOverlay } from '../services/user-services-overlay';
import { userLabel } from '../user-picker';
import { ADMIN_USERS_MESSAGES, LOGIN_AS_REDIRECT_DELAY, SEARCH_DEBOUNCE } from './admin-users-messages';
import {
  selectBusyUserIds,
  selectLoginAs,
  selectLoginAsUserId,
  selectResetLink,
  selectUsersQuery,
  selectUsersReply,
  selectUsersStatus,
} from './admin-users-selectors';
import {
  auditRequested,
  type DetailsChange,
  loginAsCompleted,
  loginAsSubmitted,
  resetLinkRequested,
  userActivationSubmitted,
  userDeleteSubmitted,
  userDetailsSubmitted,
  userRoleSubmitted,
  usersQueryChanged,
  usersRequested,
} from './admin-users-slice';
import { LoginAsActivity } from './login-as-activity';
import { ResetLinkDialog } from './reset-link-dialog';
import './user-management.css';

const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', friend: 'Friend', user: 'User' };

type Confirm =
  | { kind: 'details'; user: AdminUserRow; change: DetailsChange; text: string }
  | { kind: 'delete'; user: AdminUserRow }
  | { kind: 'reset'; user: AdminUserRow };

const CONFIRM_TEXTS = {
  details: { title: 'Save changes', label: 'Save' },
  delete: { title: 'Delete user', label: 'Delete' },
  reset: { title: 'Reset password', label: 'Create link' },
} as const;

function confirmText(confirm: Confirm | null): string {
  if (!confirm) return '';
  if (confirm.kind === 'details') return confirm.text;
  if (confirm.kind === 'delete') return `Delete ${confirm.user.name} (${confirm.user.email})? This cannot be undone.`;
  return `Create a password reset link for ${confirm.user.name} (${confirm.user.email})? The link works once, for ${PASSWORD_RESET_TTL_MINUTES} minutes.`;
}

function SortHeader({ label, sort, className }: { label: string; sort: AdminUserSort; className?: string }) {
  const dispatch = useAppDispatch();
  const query = useAppSelector(selectUsersQuery);
  const isSorted = query.sort === sort;
  const ariaSort = isSorted ? (query.order === 'asc' ? 'ascending' : 'descending') : 'none';
  const toggle = () =>
    dispatch(usersQueryChanged({ sort, order: isSorted && query.order === 'asc' ? 'desc' : 'asc', page: 1 }));
  return (
    <th scope="col" aria-sort={ariaSort} className={className}>
      <button type="button" className="user-table__sort" onClick={toggle}>
        {label}
        <span aria-hidden="true" className="user-table__sort-mark">
          {isSorted ? (query.order === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}

interface InlineEditProps {
  label: string;
  display: ReactNode;
  initial: string;
  inputType: 'number' | 'text';
  isDisabled: boolean;
  /** Called with the typed value; the page asks for confirmation before saving. */
  onSubmit: (value: string) => void;
  /** A rule the server also holds: the message when the trimmed value breaks it, else null. */
  check?: (value: string) => string | null;
}

/** A value shown with an Edit button; editing shows an input with Save and Cancel (Enter saves, Escape cancels). */
function InlineEdit({ label, display, initial, inputType, isDisabled, onSubmit, check }: InlineEditProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const errorId = useId();

  const isEditing = draft !== null;
  useEffect(() => {
    if (isEditing) input.current?.focus();
  }, [isEditing]);

  if (draft === null) {
    return (
      <span className="inline-edit">
        <span className="inline-edit__value">{display}</span>
        <button
          type="button"
          className="inline-edit__button"
          aria-label={`Edit ${label}`}
          disabled={isDisabled}
          onClick={() => {
            setDraft(initial);
            setError(null);
          }}
        >
          Edit
        </button>
      </span>
    );
  }

  const submit = () => {
    const value = draft.trim();
    if (value === '') {
      setError('Enter a value');
      return;
    }
    if (inputType === 'number' && !Number.isFinite(Number(value))) {
      setError('Enter a number');
      return;
    }
    const problem = check?.(value) ?? null;
    if (problem) {
      setError(problem);
      return;
    }
    onSubmit(value);
    setDraft(null);
  };

  return (
    <span className="inline-edit inline-edit--editing">
      <input
        ref={input}
        className="input inline-edit__input"
        type={inputType}
        step={inputType === 'number' ? 0.01 : undefined}
        aria-label={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            // The confirm dialog takes focus; this Enter must not also press its buttons.
            e.preventDefault();
            submit();
          }
          if (e.key === 'Escape') setDraft(null);
        }}
      />
      <button type="button" className="inline-edit__button" onClick={submit}>
        Save
      </button>
      <button type="button" className="inline-edit__button" onClick={() => setDraft(null)}>
        Cancel
      </button>
      {error ? (
        <span id={errorId} className="inline-edit__error" role="alert">
          {error}
        </span>
      ) : null}
    </span>
  );
}

function SearchBox() {
  const dispatch = useAppDispatch();
  const query = useAppSelector(selectUsersQuery);
  const [text, setText] = useState(query.search);

  useEffect(() => {
    if (text === query.search) return;
    const timer = window.setTimeout(() => dispatch(usersQueryChanged({ search: text, page: 1 })), SEARCH_DEBOUNCE);
    return () => window.clearTimeout(timer);
  }, [text, query.search, dispatch]);

  return (
    <label className="user-management__search">
      <span className="visually-hidden">Search users</span>
      <input
        className="input"
        type="search"
        placeholder="Search name, email or referral code"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
    </label>
  );
}

/** Spec doc 3 §2: every user, with role, access, balance and referral controls, services and Login As. */
export function UserManagementPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const query = useAppSelector(selectUsersQuery);
  const status = useAppSelector(selectUsersStatus);
  const reply = useAppSelector(selectUsersReply);
  const busyIds = useAppSelector(selectBusyUserIds);
  const loginAs = useAppSelector(selectLoginAs);
  const loginAsUserId = useAppSelector(selectLoginAsUserId);
  const resetLink = useAppSelector(selectResetLink);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [servicesUser, setServicesUser] = useState<AdminUserRow | null>(null);
  const [tab, setTab] = useState<'users' | 'activity'>('users');
  const pageSizeId = useId();

  useEffect(() => {
    dispatch(usersRequested());
    // Leaving the page before the redirect abandons a Login As still waiting for its delay.
    return () => {
      dispatch(loginAsCompleted());
    };
  }, [dispatch]);

  // A page emptied by deletes (or a search that shrank the list) moves back to the last page that has users.
  useEffect(() => {
    if (!reply || reply.users.length > 0 || reply.page <= 1 || reply.totalCount === 0) return;
    dispatch(usersQueryChanged({ page: Math.max(1, Math.ceil(reply.totalCount / reply.limit)) }));
  }, [reply, dispatch]);

  // Spec doc 3 §4: the user's session takes over after 1.5 s, on the user's dashboard.
  useEffect(() => {
    if (!loginAs) return;
    const timer = window.setTimeout(() => {
      dispatch(impersonationStarted({ token: loginAs.token, user: loginAs.user }));
      dispatch(loginAsCompleted());
      navigate('/main/dashboard');
    }, LOGIN_AS_REDIRECT_DELAY);
    return () => window.clearTimeout(timer);
  }, [loginAs, navigate, dispatch]);

  const users = reply?.users ?? [];
  const pageCount = reply ? Math.max(1, Math.ceil(reply.totalCount / reply.limit)) : 1;
  const firstNumber = reply ? (reply.page - 1) * reply.limit : 0;
  const isFirstLoad = status === 'loading' && !reply;

  const runConfirmed = () => {
    if (!confirm) return;
    if (confirm.kind === 'details') dispatch(userDetailsSubmitted(confirm.change));
    else if (confirm.kind === 'reset') dispatch(resetLinkRequested(confirm.user._id));
    else dispatch(userDeleteSubmitted({ userId: confirm.user._id }));
    setConfirm(null);
  };

  return (
    <section className="user-management" aria-labelledby="user-management-title">
      <div className="user-management__bar">
        <h2 id="user-management-title" className="user-management__title">
          User Management
        </h2>
        {tab === 'users' ? (
          <>
            <SearchBox />
            <label className="user-management__size" htmlFor={pageSizeId}>
              Rows per page
              <select
                id={pageSizeId}
                className="input"
                value={query.limit}
                onChange={(e) => dispatch(usersQueryChanged({ limit: Number(e.target.value), page: 1 }))}
              >
                {ADMIN_USERS_PAGE_SIZES.map((size) => (
                  <option key={size} value={size}>
                    {size}
                  </option>
                ))}
              </select>
            </label>
          </>
        ) : null}
      </div>

      <div role="tablist" className="user-management__tabs" aria-label="User management">
        <button type="button" role="tab" aria-selected={tab === 'users'} onClick={() => setTab('users')}>
          Users
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={tab === 'activity'}
          onClick={() => {
            dispatch(auditRequested({}));
            setTab('activity');
          }}
        >
          Login As activity
        </button>
      </div>

      {tab === 'activity' ? <LoginAsActivity /> : null}

      {tab === 'users' && status === 'failed' && !reply ? (
        <div className="card user-management__state">
          <p className="alert alert--error">{ADMIN_USERS_MESSAGES.loadFailed}</p>
          <button type="button" className="button button--primary" onClick={() => dispatch(usersRequested())}>
            Try again
          </button>
        </div>
      ) : null}

      {tab === 'users' && isFirstLoad ? (
        <div className="card user-management__state" role="status">
          <Spinner /> Loading users…
        </div>
      ) : null}

      {tab === 'users' && reply ? (
        <div className="card user-management__card" aria-busy={status === 'loading'}>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard to scroll it */}
          <section className="user-table__scroll" tabIndex={0} aria-label="Users table">
            <table className="user-table">
              <thead>
                <tr>
                  <th scope="col">No.</th>
                  <SortHeader label="Name" sort="name" />
                  <SortHeader label="Email" sort="email" />
                  <SortHeader label="Role" sort="user_role" />
                  <SortHeader label="Referral" sort="referralCode" />
                  <th scope="col">Services</th>
                  <SortHeader label="Deposited" sort="totalDeposit" className="user-table__money" />
                  <SortHeader label="Spent" sort="totalSpent" className="user-table__money" />
                  <SortHeader label="Balance" sort="balance" className="user-table__money" />
                  <SortHeader label="Access" sort="activation" />
                  <th scope="col">Actions</th>
                  <th scope="col">Login As</th>
                </tr>
              </thead>
              <tbody>
                {users.length === 0 ? (
                  <tr>
                    <td colSpan={12} className="user-table__empty">
                      {ADMIN_USERS_MESSAGES.empty}
                    </td>
                  </tr>
                ) : null}
                {users.map((user, index) => {
                  const isBusy = busyIds.includes(user._id);
                  const isBlocked = user.activation === 'block';
                  return (
                    <tr key={user._id} className={isBlocked ? 'user-table__row--blocked' : undefined}>
                      <td>{firstNumber + index + 1}</td>
                      <td className="user-table__name">{user.name}</td>
                      <td>{user.email}</td>
                      <td>
                        <select
                          className="input user-table__select"
                          aria-label={`Role of ${user.name}`}
                          value={user.user_role}
                          disabled={isBusy}
                          onChange={(e) =>
                            dispatch(userRoleSubmitted({ userId: user._id, role: e.target.value as Role }))
                          }
                        >
                          {ROLES.map((role) => (
                            <option key={role} value={role}>
                              {ROLE_LABELS[role]}
                            </option>
                          ))}
                        </select>
                      </td>
                      <td>
                        <InlineEdit
                          label={`referral code of ${user.name}`}
                          display={user.referralCode || '—'}
                          initial={user.referralCode}
                          inputType="text"
                          isDisabled={isBusy}
                          check={(code) => (isValidChosenReferralCode(code) ? null : REFERRAL_CODE_FORMAT_MESSAGE)}
                          onSubmit={(referralCode) =>
                            setConfirm({
                              kind: 'details',
                              user,
                              change: { userId: user._id, referralCode },
                              text: `Change the referral code of ${user.name} to ${referralCode}?`,
                            })
                          }
                        />
                      </td>
                      <td>
                        <button
                          type="button"
                          className="button button--ghost user-table__small"
                          aria-label={`Services of ${user.name}`}
                          onClick={() => setServicesUser(user)}
                        >
                          Services
                        </button>
                      </td>
                      <td className="user-table__money">{formatMoney(user.totalDeposit)}</td>
                      <td className="user-table__money">{formatMoney(user.totalSpent)}</td>
                      <td className="user-table__money">
                        <InlineEdit
                          label={`balance of ${user.name}`}
                          display={formatMoney(user.balance)}
                          initial={user.balance.toFixed(2)}
                          inputType="number"
                          isDisabled={isBusy}
                          onSubmit={(value) => {
                            const balance = Number(value);
                            setConfirm({
                              kind: 'details',
                              user,
                              change: { userId: user._id, balance },
                              text: `Set the balance of ${user.name} to ${formatMoney(balance)}?`,
                            });
                          }}
                        />
                      </td>
                      <td>
                        <span className="user-table__access">
                          <span className={`user-table__badge user-table__badge--${user.activation}`}>
                            {isBlocked ? 'Blocked' : 'Allowed'}
                          </span>
                          <button
                            type="button"
                            className="button button--ghost user-table__small"
                            aria-label={`${isBlocked ? 'Allow' : 'Block'} ${user.name}`}
                            disabled={isBusy}
                            onClick={() =>
                              dispatch(
                                userActivationSubmitted({
                                  userId: user._id,
                                  activation: isBlocked ? 'allow' : 'block',
                                }),
                              )
                            }
                          >
                            {isBlocked ? 'Allow' : 'Block'}
                          </button>
                        </span>
                      </td>
                      <td>
                        <span className="user-table__access">
                          <button
                            type="button"
                            className="button button--ghost user-table__small"
                            aria-label={`Reset password of ${user.name}`}
                            disabled={isBusy || resetLink.userId !== null}
                            onClick={() => setConfirm({ kind: 'reset', user })}
                          >
                            Reset password
                          </button>
                          <button
                            type="button"
                            className="button button--ghost user-table__small"
                            aria-label={`Login As activity of ${user.name}`}
                            onClick={() => {
                              dispatch(auditRequested({ filter: { userId: user._id, label: userLabel(user) } }));
                              setTab('activity');
                            }}
                          >
                            Activity
                          </button>
                          <button
                            type="button"
                            className="button button--danger user-table__small"
                            aria-label={`Delete ${user.name}`}
                            disabled={isBusy}
                            onClick={() => setConfirm({ kind: 'delete', user })}
                          >
                            Delete
                          </button>
                        </span>
                      </td>
                      <td>
                        <button
                          type="button"
                          className="button button--primary user-table__small"
                          aria-label={`Login as ${user.name}`}
                          disabled={loginAsUserId !== null}
                          onClick={() => dispatch(loginAsSubmitted(user._id))}
                        >
                          {loginAsUserId === user._id ? 'Signing in…' : 'Login As'}
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
              <tfoot>
                <tr className="user-table__totals">
                  <th scope="row" colSpan={6}>
                    Totals ({reply.totalCount} {reply.totalCount === 1 ? 'user' : 'users'})
                  </th>
                  <td className="user-table__money">{formatMoney(reply.totals.totalDeposit)}</td>
                  <td className="user-table__money">{formatMoney(reply.totals.totalSpent)}</td>
                  <td className="user-table__money">{formatMoney(reply.totals.balance)}</td>
                  <td colSpan={3} />
                </tr>
              </tfoot>
            </table>
          </section>
          <Pagination
            page={reply.page}
            pageCount={pageCount}
            onChange={(page) => dispatch(usersQueryChanged({ page }))}
            label="User pages"
          />
        </div>
      ) : null}

      <ConfirmDialog
        isOpen={confirm !== null}
        title={CONFIRM_TEXTS[confirm?.kind ?? 'details'].title}
        text={confirmText(confirm)}
        confirmLabel={CONFIRM_TEXTS[confirm?.kind ?? 'details'].label}
        tone={confirm?.kind === 'delete' ? 'danger' : 'primary'}
        onConfirm={runConfirmed}
        onCancel={() => setConfirm(null)}
      />

      <ResetLinkDialog />

      {servicesUser ? <UserServicesOverlay user={servicesUser} onClose={() => setServicesUser(null)} /> : null}
    </section>
  );
}
