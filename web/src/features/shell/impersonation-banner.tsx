import { useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { tokenImpersonatorId } from '../../app/token-claims';
import { selectImpersonator, selectToken, selectUser } from '../auth/auth-selectors';
import { impersonationEnded, logoutRequested } from '../auth/auth-slice';

/**
 * Shown in the user area while an admin is signed in as this user (Login As):
 * the kept admin session gives the way back; a Login As token without it (the
 * admin's session was dropped, e.g. another browser tab logged out) can only
 * sign out.
 */
export function ImpersonationBanner() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const admin = useAppSelector(selectImpersonator);
  const user = useAppSelector(selectUser);
  const token = useAppSelector(selectToken);
  const hasLoginAsToken = tokenImpersonatorId(token) !== null;
  if (!user || (!admin && !hasLoginAsToken)) return null;

  const back = () => {
    // The admin's session first, so the admin guard lets the next page in.
    dispatch(impersonationEnded());
    navigate('/admin/user-management');
  };
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
