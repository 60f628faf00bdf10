import { useCallback, useEffect } from 'react';
import { useNavigate } from 'react-router';
import { formatTimeOrDateTime } from '../../app/format';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { tokenExpiresAt, tokenImpersonatorId } from '../../app/token-claims';
import { selectImpersonator, selectToken, selectUser } from '../auth/auth-selectors';
import { impersonationEnded, logoutRequested } from '../auth/auth-slice';

/** Longer than a browser timer can wait (about 24.8 days); a reload before then arms it again. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Shown in the user area while an admin is signed in as this user (Login As):
 * the kept admin session gives the way back; a Login As token without it (the
 * admin's session was dropped, e.g. another browser tab logged out) can only
 * sign out. It says when the Login As token ends; when it does, the admin is
 * taken back to their own account, as if they had asked.
 */
export function ImpersonationBanner() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const admin = useAppSelector(selectImpersonator);
  const user = useAppSelector(selectUser);
  const token = useAppSelector(selectToken);
  const hasLoginAsToken = tokenImpersonatorId(token) !== null;
  const endsAt = hasLoginAsToken ? tokenExpiresAt(token) : null;
  const endsAtMs = endsAt?.getTime() ?? null;
  const hasAdmin = admin !== null;

  const back = useCallback(() => {
    // The admin's session first, so the admin guard lets the next page in.
    dispatch(impersonationEnded());
    navigate('/admin/user-management');
  }, [dispatch, navigate]);

  useEffect(() => {
    if (!hasAdmin || endsAtMs === null) return;
    const wait = Math.max(0, endsAtMs - Date.now());
    if (wait > MAX_TIMER_MS) return;
    const timer = setTimeout(back, wait);
    return () => clearTimeout(timer);
  }, [hasAdmin, endsAtMs, back]);

  if (!user || (!admin && !hasLoginAsToken)) return null;

  const signOut = () => {
    dispatch(logoutRequested());
    navigate('/login');
  };

  return (
    <section className="impersonation-banner" aria-label="Signed in as another user">
      <p className="impersonation-banner__text">
        You are signed in as <strong>{user.name}</strong> ({user.email}) by{' '}
        {admin ? `admin ${admin.user.name} (${admin.user.email})` : 'an admin'}. Everything you do here is done as this
        user.
        {endsAt ? (
          <>
            {' '}
            This session ends at <strong>{formatTimeOrDateTime(endsAt)}</strong>.
          </>
        ) : null}
      </p>
      {admin ? (
        <button type="button" className="button button--accent" onClick={back}>
          Back to admin
        </button>
      ) : (
        <button type="button" className="button button--accent" onClick={signOut}>
          Sign out
        </button>
      )}
    </section>
  );
}
