import type { SessionUser } from '@flatship/proto';

// The session token lives in localStorage under 'token' (spec doc 1 §6), so a
// reload keeps the user signed in until verification says otherwise.
const KEY = 'token';

export const tokenStorage = {
  get(): string | null {
    try {
      return localStorage.getItem(KEY);
    } catch {
      return null;
    }
  },
  set(token: string): void {
    localStorage.setItem(KEY, token);
  },
  clear(): void {
    localStorage.removeItem(KEY);
  },
};

/**
 * While an admin is signed in as a user (Login As), the admin's own token and
 * user are kept here so "Back to admin" can restore them; logout drops them.
 */
const ADMIN_KEY = 'adminSession';

export interface KeptAdminSession {
  token: string;
  user: SessionUser;
}

function isKeptSession(value: unknown): value is KeptAdminSession {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.token === 'string' && typeof v.user === 'object' && v.user !== null;
}

export const adminSessionStorage = {
  get(): KeptAdminSession | null {
    try {
      const raw = localStorage.getItem(ADMIN_KEY);
      const parsed: unknown = raw ? JSON.parse(raw) : null;
      return isKeptSession(parsed) ? parsed : null;
    } catch {
      return null;
    }
  },
  set(session: KeptAdminSession): void {
    localStorage.setItem(ADMIN_KEY, JSON.stringify(session));
  },
  clear(): void {
    localStorage.removeItem(ADMIN_KEY);
  },
};
