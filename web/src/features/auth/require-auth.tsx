import { type ReactNode, useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Loader } from '../../components/spinner';
import { selectSessionStatus, selectToken, selectUser } from './auth-selectors';
import { sessionVerifyRequested } from './auth-slice';

/**
 * Signed-in area guard: with a stored token but no user yet it verifies the
 * token (showing a loader); without a token, or once verification fails, it
 * sends the visitor to /login, replacing the history entry.
 */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const dispatch = useAppDispatch();
  const location = useLocation();
  const token = useAppSelector(selectToken);
  const user = useAppSelector(selectUser);
  const session = useAppSelector(selectSessionStatus);
  const needsVerify = Boolean(token) && !user;

  useEffect(() => {
    if (needsVerify && session !== 'checking') dispatch(sessionVerifyRequested());
  }, [needsVerify, session, dispatch]);

  if (!token) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (!user) return <Loader label="Checking your session…" />;
  return children ?? <Outlet />;
}
