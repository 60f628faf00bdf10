import { useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { selectImpersonator, selectUser } from '../auth/auth-selectors';
import { impersonationEnded } from '../auth/auth-slice';

/** Shown in the user area while an admin is signed in as this user (Login As), with the way back. */
export function ImpersonationBanner() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const admin = useAppSelector(selectImpersonator);
  const user = useAppSelector(selectUser);
  if (!admin || !user) return null;

  const back = () => {
    // The admin's session first, so the admin guard lets the next page in.
    dispatch(impersonationEnded());
    navigate('/admin/user-management');
  };

  return (
    <section className="impersonation-banner" aria-label="Signed in as another user">
      <p className="impersonation-banner__text">
        You are signed in as <strong>{user.name}</strong> ({user.email}) by admin {admin.user.name} ({admin.user.email}
        ). Everything you do here is done as this user.
      </p>
      <button type="button" className="button button--accent impersonation-banner__back" onClick={back}>
        Back to admin
      </button>
    </section>
  );
}
