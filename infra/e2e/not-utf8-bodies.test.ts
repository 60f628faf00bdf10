import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../src/paths';
import { type SharedStack, sharedStack } from './shared-stack';

/**
 * A body whose text holds bytes that are not UTF-8 (`a\xFF\xFEb`) is refused by every service, through the
 * gateway, with a 400 naming the field that held them; before, the bytes became U+FFFD and were stored.
 */

const hasStack = ['services/auth/src/main.ts', 'gateway/src/main.ts'].every((p) => existsSync(join(REPO_ROOT, p)));

/** Stands for the bad bytes in a body written as JSON. */
const BAD = '@@not-utf8@@';
const BAD_BYTES = Buffer.from([0xff, 0xfe]);

/** `body` as JSON, each `BAD` replaced by bytes that are not UTF-8. */
function withBadBytes(body: unknown): Buffer {
  const parts = JSON.stringify(body).split(BAD);
  return Buffer.concat(parts.flatMap((p, i) => (i === 0 ? [Buffer.from(p)] : [BAD_BYTES, Buffer.from(p)])));
}

const ADDRESS = {
  address_id: 'Home',
  name: 'Dana Seller',
  street: '1 Main St',
  city: 'Austin',
  state: 'TX',
  zip: '78701',
  country: 'US',
};
const labelFor = (userId: string, receiverName: string) => ({
  user_id: userId,
  service_name: 'USPS Priority Mail',
  courier: 'usps',
  sender: {
    sender_name: 'Ada Sender',
    sender_address1: '1 Main St',
    sender_city: 'Austin',
    sender_state_province: 'TX',
    sender_zip_postal: '73301',
    sender_country: 'US',
  },
  receiver: {
    receiver_name: receiverName,
    receiver_address1: '2 Side Ave',
    receiver_city: 'Los Angeles',
    receiver_state_province: 'CA',
    receiver_zip_postal: '90001',
    receiver_country: 'US',
  },
  package: { package_length: 10, package_width: 8, package_height: 4, package_weight: 2, package_weight_unit: 'LB' },
});

describe.skipIf(!hasStack)('bodies that are not UTF-8', () => {
  let stack: SharedStack;

  async function send(method: string, path: string, body: Buffer, token?: string) {
    const res = await fetch(`${stack.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
      body: new Uint8Array(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  const json = (method: string, path: string, body: unknown, token?: string) =>
    send(method, path, Buffer.from(JSON.stringify(body), 'utf8'), token);

  beforeAll(async () => {
    stack = await sharedStack();
  });

  test('every service answers 400 naming the field, and nothing is stored', async () => {
    const email = `utf8-${randomUUID()}@example.com`;
    const password = 'Utf8-Check-2026';

    // auth: registration.
    const badRegistration = await send(
      'POST',
      '/api/auth/register',
      withBadBytes({ name: `a${BAD}b`, email, password, confirmPassword: password }),
    );
    expect(badRegistration).toEqual({
      status: 400,
      body: { code: 'VALIDATION_FAILED', message: 'name is not valid UTF-8 text' },
    });
    const registered = await json('POST', '/api/auth/register', {
      name: 'Dana \uFFFD Seller',
      email,
      password,
      confirmPassword: password,
    });
    // A real U+FFFD, sent as UTF-8, is text like any other.
    expect(registered.status).toBe(201);
    const token = String(registered.body.token);
    const me = String((registered.body.user as { _id: string })._id);
    const verified = await fetch(`${stack.url}/api/auth/verify`, { headers: { token } });
    expect(((await verified.json()) as { user: { name: string } }).user.name).toBe('Dana \uFFFD Seller');

    // auth: the address book.
    expect(
      await send('POST', `/api/auth/save-address/${me}`, withBadBytes({ ...ADDRESS, name: `Dana${BAD}` }), token),
    ).toEqual({ status: 400, body: { code: 'VALIDATION_FAILED', message: 'name is not valid UTF-8 text' } });
    const book = await fetch(`${stack.url}/api/auth/get-address/${me}`, { headers: { token } });
    expect(JSON.stringify(await book.json())).not.toContain('\uFFFD');

    // orders: a label's receiver.
    expect(await send('POST', '/api/orders/v2', withBadBytes(labelFor(me, `Bob${BAD}`)), token)).toEqual({
      status: 400,
      body: { code: 'VALIDATION_FAILED', message: 'receiver.receiver_name is not valid UTF-8 text' },
    });

    // services-pricing: a quote.
    expect(
      await send(
        'POST',
        '/api/orders/price/v2/bulk',
        withBadBytes({ userId: me, shipments: [{ service_name: `USPS${BAD}`, package: { package_weight: 2 } }] }),
        token,
      ),
    ).toEqual({
      status: 400,
      body: { code: 'VALIDATION_FAILED', message: 'shipments[0].service_name is not valid UTF-8 text' },
    });

    // admin: a user's details, as an admin.
    const login = await json('POST', '/api/auth/login', { email: stack.adminEmail, password: stack.adminPassword });
    const adminToken = String(login.body.token);
    expect(
      await send('POST', `/api/auth/users/details/${me}`, withBadBytes({ referralCode: `R${BAD}` }), adminToken),
    ).toEqual({ status: 400, body: { code: 'VALIDATION_FAILED', message: 'referralCode is not valid UTF-8 text' } });

    // payments takes no JSON body from the public side but BTCPay's signed webhook, whose bytes it verifies as
    // they are: unsigned bad bytes are refused like any unsigned body, and never a server error.
    const webhook = await send('POST', '/api/payment/webhook/btcpay', withBadBytes({ type: `x${BAD}` }));
    expect(webhook.status).toBe(401);

    // The gateway reads a login and a reset request itself (to limit attempts per email): refused there alike.
    expect(await send('POST', '/api/auth/login', withBadBytes({ email, password: `x${BAD}` }))).toEqual({
      status: 400,
      body: { code: 'VALIDATION_FAILED', message: 'password is not valid UTF-8 text' },
    });
    expect(await send('POST', '/api/auth/forgot-password', withBadBytes({ email: `x${BAD}@example.com` }))).toEqual({
      status: 400,
      body: { code: 'VALIDATION_FAILED', message: 'email is not valid UTF-8 text' },
    });
  });
});
