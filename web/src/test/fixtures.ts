import type { SessionUser } from '../features/auth/session-user';

export function makeUser(overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    _id: 'u-1',
    name: 'Jane Shipper',
    email: 'jane@example.com',
    avatar: '',
    user_role: 'user',
    activation: 'allow',
    referralCode: 'JANE123',
    referredBy: null,
    balance: 12.5,
    totalDeposit: 100,
    totalSpent: 87.5,
    createdAt: '2026-01-10T10:00:00.000Z',
    ...overrides,
  };
}
