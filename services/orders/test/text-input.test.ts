import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bulkItems, newOrderId, processBulk } from './bulk-support';
import { fundedUser, type Stack, startStack } from './stack';
import { labelRows, orderBody, postOrder, type TestUser } from './support';

// Text an attacker (or a damaged file) sends that PostgreSQL cannot store or that is not
// Unicode: refused with a 400 naming the field, before anything is priced, charged or stored.
let s: Stack;
beforeAll(async () => {
  s = await startStack();
});
afterAll(() => s.close());

const funded = (cents = 100_000) => fundedUser(s, cents);

/** Only the balance set-up is in the ledger: nothing was charged. */
async function expectNothingCharged(u: TestUser) {
  expect((await s.ledgerEntries(u.id)).map((e) => e.kind)).toEqual(['admin_adjustment']);
}

const BAD_TEXT = [
  ['NUL', 'Bob\u0000Receiver'],
  ['a lone high surrogate', 'Bob \ud800 Receiver'],
  ['a lone low surrogate', '\udc00'],
  ['a control character', 'Bob\u001bReceiver'],
  ['a line break in a single-line field', 'Bob\nReceiver'],
] as const;

describe('text the database or a label cannot hold', () => {
  test.each(BAD_TEXT)('single label: %s in the recipient name is a 400 naming the field', async (_, bad) => {
    const u = await funded();
    const res = await postOrder(s, u, orderBody(u.id, { receiver: { receiver_name: bad } as never }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: expect.stringMatching(/^receiver\.receiver_name (contains a character that is not allowed|must be)/),
    });
    expect(await labelRows(s, u.id)).toEqual([]);
    await expectNothingCharged(u);
  });

  test.each([
    ['sender_address1', { sender: { sender_address1: '1 Main\u0000St' } }, 'sender.sender_address1'],
    ['receiver_city', { receiver: { receiver_city: 'Los \ud800Angeles' } }, 'receiver.receiver_city'],
    ['package_description', { package: { package_description: 'Books\u0000' } }, 'package.package_description'],
  ])('single label: bad text in %s is named by its path', async (_, over, path) => {
    const u = await funded();
    const res = await postOrder(s, u, orderBody(u.id, over as never));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: `${path} contains a character that is not allowed`,
    });
    expect(await labelRows(s, u.id)).toEqual([]);
  });

  test.each(BAD_TEXT)(
    'bulk: %s in a row is a 400 naming the row and field; nothing charged or stored',
    async (_, bad) => {
      const u = await funded();
      const orderId = await newOrderId(s, u);
      const items = bulkItems(5, (i) => (i === 3 ? { receiver: { receiver_address1: bad } } : {}));
      const res = await processBulk(s, u, { orderId, orderData: items });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        code: 'VALIDATION_FAILED',
        message: expect.stringMatching(/^orderData\[3\]\.receiver\.receiver_address1 /),
      });
      expect(await s.db('labels').where({ bulk_order_id: orderId })).toHaveLength(0);
      await expectNothingCharged(u);
    },
  );

  test('bulk: a field the contract does not name is checked too (rows are stored as sent)', async () => {
    const u = await funded();
    const orderId = await newOrderId(s, u);
    const items = bulkItems(2).map((item, i) => (i === 1 ? { ...item, note: 'x\u0000y' } : item));
    const res = await processBulk(s, u, { orderId, orderData: items });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'orderData[1].note contains a character that is not allowed',
    });
    await expectNothingCharged(u);
  });

  test('a NUL in a path parameter is refused, not looked up', async () => {
    const u = await funded();
    const res = await s.app.inject({
      method: 'GET',
      url: `/api/orders/recent/${u.id}%00`,
      headers: { token: u.token },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'userId contains a character that is not allowed',
    });
  });

  test('ordinary text, accents and emoji included, is kept as written', async () => {
    const u = await funded();
    const res = await postOrder(
      s,
      u,
      orderBody(u.id, { receiver: { receiver_name: 'Zoë Ñúñez 📦', receiver_company: 'Café "Ü" & Co' } as never }),
    );
    expect(res.statusCode).toBe(201);
    const [row] = await s.db('labels').where({ user_id: u.id });
    expect(row.receiver).toMatchObject({ name: 'Zoë Ñúñez 📦', company: 'Café "Ü" & Co' });
  });
});
