import type { AdminDashboardReply } from '@flatship/proto';
import { HttpResponse, http } from 'msw';
import type { SessionUser } from '../features/auth/session-user';

/** Absolute API address as the app's http client builds it under jsdom (origin http://localhost). */
export const api = (path: string) => `http://localhost/api/${path}`;

/** GET /api/auth/verify accepting exactly `token` and answering with `user`. */
export function verifyHandler(user: SessionUser, token = 'good-token') {
  return http.get(api('auth/verify'), ({ request }) =>
    request.headers.get('token') === token
      ? HttpResponse.json({ user })
      : HttpResponse.json({ code: 'AUTH_INVALID_TOKEN', message: 'Invalid token' }, { status: 401 }),
  );
}

/** The dashboard's three reads, answering with empty data. */
export function emptyDashboardHandlers() {
  return [
    http.get(api('orders/total/:userId'), () => HttpResponse.json({ totalOrders: 0 })),
    http.get(api('orders/recent/:userId'), () => HttpResponse.json({ recentOrders: [] })),
    http.get(api('payment/recent-deposits/:userId'), () => HttpResponse.json([])),
  ];
}

/** The admin dashboard's read (GET /api/admin/dashboard), answering with an empty month. */
export function emptyAdminDashboardHandler() {
  const reply: AdminDashboardReply = {
    users: { total: 0, newThisMonth: 0 },
    labels: { today: 0, thisMonth: 0, failedToday: 0 },
    revenue: { today: 0, thisMonth: 0 },
    deposits: { thisMonth: 0, countThisMonth: 0 },
    runningBulkOrders: 0,
    activity: [],
    generatedAt: '2026-11-24T12:00:00.000Z',
  };
  return http.get(api('admin/dashboard'), () => HttpResponse.json(reply));
}

/** POST /api/orders/download-token as orders answers it: the asked-for path with a download token for it. */
export function downloadLinkHandler(token = 'download-token-1', seen: { path: string; session: string | null }[] = []) {
  return http.post(api('orders/download-token'), async ({ request }) => {
    const { path } = (await request.json()) as { path: string };
    seen.push({ path, session: request.headers.get('token') });
    return HttpResponse.json({
      token,
      url: `${path}?token=${token}`,
      expiresAt: new Date(Date.now() + 300_000).toISOString(),
    });
  });
}
