import '../admin-area';
import { isValidChosenReferralCode, LIMITS, REFERRAL_CODE_FORMAT_MESSAGE } from '@flatship/proto';
import { type FormEvent, useEffect, useState } from 'react';
import { formatDateTime, formatMoney } from '../../../app/format';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { Pagination } from '../../../components/pagination';
import { Spinner } from '../../../components/spinner';
import { BonusState } from '../../referral-bonus/bonus-state';
import { ReferralBonusSettings } from '../referral-bonus/referral-bonus-settings';
import { UserPicker } from '../user-picker';
import { REFERRAL_MESSAGES } from './referral-saga';
import { referralCodeSaveRequested, referralUserSelected, selectReferral } from './referral-slice';
import './referral-management.css';

/** Spec doc 2 §9: invited-user lists show 7 rows a page. */
export const INVITED_PAGE_SIZE = 7;

/** /admin/referral-management (spec doc 3 §2): pick a user, see their code and invited users, set a new code. */
export function ReferralManagementPage() {
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectReferral);
  const { selected, referralCode, isLoadingCode, codeError, invitedUsers, isLoadingInvited, invitedError } = state;
  const [newCode, setNewCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [page, setPage] = useState(1);

  // A new user starts on the first page of their list with an empty code field.
  const selectedId = selected?._id ?? null;
  useEffect(() => {
    if (selectedId === null) return;
    setPage(1);
    setNewCode('');
    setFieldError(null);
  }, [selectedId]);

  const pageCount = Math.max(1, Math.ceil(invitedUsers.length / INVITED_PAGE_SIZE));
  const shownInvited = invitedUsers.slice((page - 1) * INVITED_PAGE_SIZE, page * INVITED_PAGE_SIZE);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The form only shows once a user is picked.
    if (!selected) return;
    if (newCode.trim() === '') return setFieldError(REFERRAL_MESSAGES.codeRequired);
    // The server's own rule (shared), so a bad code is named here without a round trip.
    if (!isValidChosenReferralCode(newCode.trim())) return setFieldError(REFERRAL_CODE_FORMAT_MESSAGE);
    setFieldError(null);
    dispatch(referralCodeSaveRequested({ userId: selected._id, referralCode: newCode.trim() }));
  };

  return (
    <section className="referral-management">
      <h2 className="referral-management__title">Referral Management</h2>
      <ReferralBonusSettings />
      <div className="card referral-management__picker">
        <label htmlFor="referral-user" className="field">
          User
        </label>
        <UserPicker
          id="referral-user"
          userId={selectedId}
          onChange={(user) => {
            if (user) dispatch(referralUserSelected(user));
          }}
        />
      </div>

      {selected ? (
        <>
          <section className="card referral-management__code" aria-labelledby="referral-code-heading">
            <h3 id="referral-code-heading">Referral code of {selected.name}</h3>
            {isLoadingCode ? (
              <p role="status">
                <Spinner size={16} /> Loading referral code…
              </p>
            ) : codeError ? (
              <p className="referral-management__error">{codeError}</p>
            ) : (
              <p className="referral-management__current">
                Current code: <strong data-testid="current-referral-code">{referralCode || '—'}</strong>
              </p>
            )}
            <form className="referral-management__form" onSubmit={submit} noValidate>
              <label htmlFor="new-referral-code">New referral code</label>
              <div className="referral-management__row">
                <input
                  id="new-referral-code"
                  className="input"
                  value={newCode}
                  maxLength={LIMITS.referralCodeMax}
                  aria-invalid={fieldError ? true : undefined}
                  aria-describedby={fieldError ? 'new-referral-code-error' : undefined}
                  onChange={(e) => setNewCode(e.target.value)}
                />
                <button type="submit" className="button button--primary" disabled={state.isSaving}>
                  {state.isSaving ? 'Saving…' : 'Update referral code'}
                </button>
              </div>
              {fieldError ? (
                <p id="new-referral-code-error" className="referral-management__error">
                  {fieldError}
                </p>
              ) : null}
            </form>
          </section>

          <section className="card referral-management__invited" aria-labelledby="invited-heading">
            <h3 id="invited-heading">Invited users</h3>
            {isLoadingInvited ? (
              <p role="status">
                <Spinner size={16} /> Loading invited users…
              </p>
            ) : invitedError ? (
              <p className="referral-management__error">{invitedError}</p>
            ) : invitedUsers.length === 0 ? (
              <p>No invited users yet.</p>
            ) : (
              <>
                <table className="referral-management__table" aria-labelledby="invited-heading">
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Registered</th>
                      <th scope="col">Total deposit</th>
                      <th scope="col">Referrer bonus</th>
                      <th scope="col">New user bonus</th>
                    </tr>
                  </thead>
                  <tbody>
                    {shownInvited.map((u, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: invited users carry no id; the list is read-only
                      <tr key={`${page}-${i}`}>
                        <td>{u.name}</td>
                        <td>{formatDateTime(u.registeredDate)}</td>
                        <td>{formatMoney(u.totalDeposit)}</td>
                        <td>
                          <BonusState state={u.bonus?.referrer} />
                        </td>
                        <td>
                          <BonusState state={u.bonus?.referred} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                <Pagination page={page} pageCount={pageCount} onChange={setPage} label="Invited users pages" />
              </>
            )}
          </section>
        </>
      ) : (
        <p className="referral-management__hint">Pick a user to see and set their referral code.</p>
      )}
    </section>
  );
}
