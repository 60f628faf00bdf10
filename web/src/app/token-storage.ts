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
