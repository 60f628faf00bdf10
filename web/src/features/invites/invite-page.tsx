import '../shell/user-area';
import { useEffect } from 'react';
import { formatDateTime, formatMoney } from '../../app/format';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { CopyText } from '../../components/copy-text';
import { type Column, DataTable } from '../../components/data-table';
import { selectUser } from '../auth/auth-selectors';
import { BonusState } from '../referral-bonus/bonus-state';
import { referrerBonusText } from '../referral-bonus/referral-bonus-text';
import { INVITED_USERS_PAGE_SIZE, type InvitedUser, inviteLinkOf } from './invites-api';
import {
  selectInvitedUsers,
  selectInvitesError,
  selectInvitesLoading,
  selectInvitesTerms,
  selectReferralCode,
} from './invites-selectors';
import { invitesRequested } from './invites-slice';
import './invites.css';

const columns: Column<InvitedUser>[] = [
  { key: 'name', header: 'Name', render: (u) => u.name },
  {
    key: 'registeredDate',
    header: 'Registered Date',
    className: 'data-table__nowrap',
    render: (u) => formatDateTime(u.registeredDate),
  },
  { key: 'totalDeposit', header: 'Total Deposit', align: 'right', render: (u) => formatMoney(u.totalDeposit) },
  // Each referral's bonus, both sides: credited (and when), waiting for the first deposit, withheld, or none.
  { key: 'yourBonus', header: 'Your Bonus', render: (u) => <BonusState state={u.bonus?.referrer} /> },
  { key: 'theirBonus', header: 'Their Bonus', render: (u) => <BonusState state={u.bonus?.referred} /> },
];

function CopyBox({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <section className="invites__box" aria-labelledby={id}>
      <h3 id={id} className="invites__label">
        {label}
      </h3>
      {value ? (
        <div className="invites__value">
          <CopyText text={value} className="invites__copy" />
        </div>
      ) : (
        <p className="invites__value invites__value--empty">—</p>
      )}
    </section>
  );
}

/** Spec doc 2 §2: the invite link and referral code to share, and who joined with them. */
export function InvitePage() {
  const dispatch = useAppDispatch();
  const userId = useAppSelector(selectUser)?._id ?? null;
  const referralCode = useAppSelector(selectReferralCode);
  const invitedUsers = useAppSelector(selectInvitedUsers);
  const isLoading = useAppSelector(selectInvitesLoading);
  const error = useAppSelector(selectInvitesError);
  const bonusText = referrerBonusText(useAppSelector(selectInvitesTerms));

  useEffect(() => {
    if (userId) dispatch(invitesRequested(userId));
  }, [userId, dispatch]);

  const inviteLink = referralCode ? inviteLinkOf(window.location.origin, referralCode) : '';

  return (
    <div className="invites">
      <section className="card invites__share" aria-labelledby="invites-heading">
        <h2 id="invites-heading" className="invites__title">
          Invite your friends
        </h2>
        <p className="invites__lead">Share your link or code; everyone who registers with it appears below.</p>
        {bonusText ? (
          <p className="invites__bonus" data-testid="referral-bonus-terms">
            {bonusText}
          </p>
        ) : null}
        {error ? (
          <p className="invites__error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="invites__boxes">
          <CopyBox id="invite-link-label" label="Invite Link" value={inviteLink} />
          <CopyBox id="referral-code-label" label="Referral Code" value={referralCode} />
        </div>
      </section>
      <section
        className="card invites__users"
        aria-labelledby="invited-users-heading"
        aria-busy={isLoading || undefined}
      >
        <h2 id="invited-users-heading" className="invites__title">
          Invited Users
        </h2>
        <DataTable
          caption="Invited Users"
          columns={columns}
          rows={invitedUsers}
          rowKey={(u, i) => `${u.registeredDate}-${i}`}
          pageSize={INVITED_USERS_PAGE_SIZE}
          emptyText="No invited users yet"
          isLoading={isLoading && invitedUsers.length === 0}
          loadingText="Loading invited users..."
        />
      </section>
    </div>
  );
}
