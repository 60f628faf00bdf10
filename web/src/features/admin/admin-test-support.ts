import type { AdminUserRow, AdminUsersReply } from '@flatship/proto';
import { HttpResponse, http } from 'msw';
import { makeUser } from '../../test/fixtures';
import { api } from '../../test/handlers';

export const makeAdmin = () =>
  makeUser({ _id: 'admin-1', name: 'Ada Admin', email: 'ada@example.com', user_role: 'admin', referralCode: 'ADA' });

export function makeRow(overrides: Partial<AdminUserRow> = {}): AdminUserRow {
  return makeUser(overrides);
}

export function usersReply(users: AdminUserRow[], overrides: Partial<AdminUsersReply> = {}): AdminUsersReply {
  return {
    users,
    totalCount: users.length,
    page: 1,
    limit: 25,
    totals: { balance: 1234.5, totalDeposit: 5000, totalSpent: 3765.5 },
    ...overrides,
  } satisfies AdminUsersReply;
}

/** Every request the handlers saw: method, path with query, and JSON body. */
export interface SeenRequest {
  method: string;
  url: URL;
  body: unknown;
}

export function recorder() {
  const seen: SeenRequest[] = [];
  const record = async (request: Request) => {
    const text = request.method === 'GET' || request.method === 'DELETE' ? '' : await request.clone().text();
    seen.push({ method: request.method, url: new URL(request.url), body: text ? JSON.parse(text) : undefined });
  };
  return { seen, record, writes: () => seen.filter((r) => r.method !== 'GET') };
}

/** GET /api/auth/users answering `reply` (or a function of the query), recording each request. */
export function usersHandler(
  rec: ReturnType<typeof recorder>,
  reply: AdminUsersReply | ((url: URL) => AdminUsersReply),
) {
  return http.get(api('auth/users'), async ({ request }) => {
    await rec.record(request);
    const url = new URL(request.url);
    return HttpResponse.json(typeof reply === 'function' ? reply(url) : reply);
  });
}

/** Stands in for the browser's media queries at a given viewport width. */
export function setViewportWidth(width: number) {
  window.matchMedia = ((query: string) => {
    const max = /max-width:\s*([\d.]+)px/.exec(query);
    const min = /min-width:\s*([\d.]+)px/.exec(query);
    const matches = (max ? width <= Number(max[1]) : true) && (min ? width >= Number(min[1]) : true);
    return {
      matches,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    } as MediaQueryList;
  }) as typeof window.matchMedia;
}

export function resetViewport() {
  // jsdom has no matchMedia of its own.
  Reflect.deleteProperty(window, 'matchMedia');
}
