import type { AdminDashboardReply, CarrierBalanceReply, ReferralBonusTerms } from '@flatship/proto';
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

/** The admin dashboard's reads (GET /api/admin/dashboard and the carrier balance), answering with an empty month. */
export function emptyAdminDashboardHandlers() {
  const reply: AdminDashboardReply = {
    users: { total: 0, newThisMonth: 0 },
    labels: { today: 0, thisMonth: 0, failedToday: 0 },
    revenue: { today: 0, thisMonth: 0 },
    cost: { today: 0, thisMonth: 0 },
    margin: { today: 0, thisMonth: 0 },
    deposits: { thisMonth: 0, countThisMonth: 0 },
    runningBulkOrders: 0,
    activity: [],
    generatedAt: '2026-11-24T12:00:00.000Z',
  };
  const balance: CarrierBalanceReply = {
    balance: 10_000,
    carriers: [{ id: 'sandbox-usps', name: 'USPS', balance: 10_000, isLow: false }],
    warnBelow: 100,
    isLow: false,
  };
  return [
    http.get(api('admin/dashboard'), () => HttpResponse.json(reply)),
    http.get(api('auth/api/balance'), () => HttpResponse.json(balance)),
    http.get(api('admin/carriers/routes'), () => HttpResponse.json({ services: [] })),
  ];
}

/** The referral bonus program is off: no bonus either side. */
export const BONUS_OFF: ReferralBonusTerms = {
  isEnabled: false,
  referrerBonus: 0,
  referredBonus: 0,
  minimumDeposit: 10,
};

/** GET /api/payment/referral-bonus (onboarding and Invites read it), answering with `terms`. */
export function referralTermsHandler(terms: ReferralBonusTerms = BONUS_OFF) {
  return http.get(api('payment/referral-bonus'), () => HttpResponse.json(terms));
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
