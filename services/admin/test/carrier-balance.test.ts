import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Registered, register, registerAdmin, type Stack, startStack } from './support';

// The carriers are a system we do not run: here they answer what each test sets, or do not answer at all.
type Accounts = { id: string; name: string; balanceCents: number }[];
let answer: () => Promise<Accounts> = async () => [];
const carriers = { balances: () => answer() };

let s: Stack;
let admin: Registered;
beforeAll(async () => {
  s = await startStack({ carriers, carrierBalanceWarnCents: 100_00 });
  admin = await registerAdmin(s);
});
afterAll(() => s.close());

const balance = (token?: string) => s.admin.inject({ url: '/api/auth/api/balance', headers: token ? { token } : {} });

describe('GET /api/auth/api/balance', () => {
  test('gives each carrier account and the total in dollars, with the warning threshold', async () => {
    answer = async () => [
      { id: 'sandbox-usps', name: 'USPS', balanceCents: 250_00 },
      { id: 'test-parcel', name: 'Test Parcel', balanceCents: 100_00 },
    ];
    const res = await balance(admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      balance: 350,
      warnBelow: 100,
      isLow: false,
      carriers: [
        { id: 'sandbox-usps', name: 'USPS', balance: 250, isLow: false },
        // Exactly at the threshold is not below it.
        { id: 'test-parcel', name: 'Test Parcel', balance: 100, isLow: false },
      ],
    });
  });

  test('says the balance is low when any one carrier account is below the threshold, whatever the total', async () => {
    answer = async () => [
      { id: 'sandbox-usps', name: 'USPS', balanceCents: 5_000_00 },
      { id: 'test-parcel', name: 'Test Parcel', balanceCents: 99_99 },
    ];
    const res = await balance(admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      balance: 5099.99,
      isLow: true,
      carriers: [{ isLow: false }, { balance: 99.99, isLow: true }],
    });
  });

  test('a carrier that cannot be reached is a 502 that says so, not a server error', async () => {
    answer = async () => {
      throw new Error('connect ECONNREFUSED 10.0.0.7:443');
    };
    const res = await balance(admin.token);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      code: 'ADMIN_CARRIER_UNREACHABLE',
      message: 'The carrier could not be reached to read its balance. Try again in a moment.',
    });
  });

  test('is for admins only: a customer gets 403 and the carrier is not asked, no token 401', async () => {
    let asked = 0;
    answer = async () => {
      asked += 1;
      return [{ id: 'sandbox-usps', name: 'USPS', balanceCents: 1_00 }];
    };
    const customer = await register(s, 'Curious Customer');
    const refused = await balance(customer.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('FORBIDDEN');
    expect((await balance()).statusCode).toBe(401);
    expect(asked).toBe(0);
  });
});
