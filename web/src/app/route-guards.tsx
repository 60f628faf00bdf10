import { type ReactNode, useEffect, useRef } from 'react';
import { Navigate, Outlet } from 'react-router';
import { toastShown } from '../components/toast-slice';
import { selectUser } from '../features/auth/auth-selectors';
import type { Role } from '../features/auth/session-user';
import { useAppDispatch, useAppSelector } from './hooks';

/** Where someone signed in lands when a page is not for their role, and what they are told. */
export const ROLE_FALLBACK_PATH = '/main/dashboard';

export const ROUTE_GUARD_MESSAGES = {
  adminsOnly: 'That page is for admins only.',
  // The server's words for the same refusal (auth: GET /api/invite/{userId}).
  invitesOnly: 'Invites are available to friends and admins.',
} as const;

interface RequireRoleProps {
  roles: readonly Role[];
  /** Shown as a toast to whoever is sent away. */
  message: string;
  children?: ReactNode;
}

/**
 * A page for some roles only. Must sit inside RequireAuth (the user is known).
 * Anyone else goes to their own dashboard, replacing the history entry, with a
 * short message saying why, instead of a page whose calls the server refuses.
 */
export function RequireRole({ roles, message, children }: RequireRoleProps) {
  const role = useAppSelector(selectUser)?.user_role;
  const isAllowed = role !== undefined && roles.includes(role);
  // The message is for someone who opened a page that is not theirs. Someone who was on it when their role
  // changed (an admin starting Login As from User Management) is moved on without a word.
  const wasAllowed = useRef(false);
  if (isAllowed) wasAllowed.current = true;
  if (isAllowed) return children ?? <Outlet />;
  return <SentAway message={wasAllowed.current ? null : message} />;
}

function SentAway({ message }: { message: string | null }) {
  const dispatch = useAppDispatch();
  // One toast per refusal: development's double effects keep this ref, so they do not show it twice.
  const hasTold = useRef(false);
  useEffect(() => {
    if (hasTold.current || message === null) return;
    hasTold.current = true;
    dispatch(toastShown({ kind: 'info', message }));
  }, [dispatch, message]);
  return <Navigate to={ROLE_FALLBACK_PATH} replace />;
}

const ADMINS: readonly Role[] = ['admin'];
// Spec doc 1 §6: the Invites page is for friends and admins, not for plain users.
const INVITERS: readonly Role[] = ['friend', 'admin'];

/** Admin pages (/admin/*, /main/admin). An admin signed in as a user (Login As) is that user here. */
export function RequireAdmin({ children }: { children?: ReactNode }) {
  return (
    <RequireRole roles={ADMINS} message={ROUTE_GUARD_MESSAGES.adminsOnly}>
      {children}
    </RequireRole>
  );
}

/** The Invites page (/main/invite). */
export function RequireInviter({ children }: { children?: ReactNode }) {
  return (
    <RequireRole roles={INVITERS} message={ROUTE_GUARD_MESSAGES.invitesOnly}>
      {children}
    </RequireRole>
  );
}
