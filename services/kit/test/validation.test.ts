import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServiceApp, type ServiceApp } from '../src/app';
import { typeboxValidatorCompiler } from '../src/validation';

const Row = Type.Object({ sku: Type.String({ minLength: 1 }), quantity: Type.Integer({ minimum: 1 }) });
const Body = Type.Object({ name: Type.String(), rows: Type.Array(Row, { maxItems: 100 }) });

/** An array whose elements count every time they are read, to measure the work a check does. */
function counted<T>(items: T[]): { array: T[]; reads: () => number } {
  let reads = 0;
  const array = new Proxy(items, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver);
    },
  });
  return { array, reads: () => reads };
}

const validate = (schema: Parameters<typeof typeboxValidatorCompiler>[0]['schema'], value: unknown) =>
  typeboxValidatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '/' })(value) as {
    value?: unknown;
    error?: Error & { validation: unknown[] };
  };

describe('the validator stops at the first problem', () => {
  test('an array longer than its maximum is refused by its length, without reading its elements', () => {
    const rows = counted(Array.from({ length: 200_000 }, () => ({})));
    const { error } = validate(Body, { name: 'n', rows: rows.array });
    expect(error?.message).toBe('rows must have at most 100 items');
    expect(rows.reads()).toBeLessThan(10);
  });

  test('an array of many bad elements is answered with the first one, after reading a few', () => {
    const rows = counted(Array.from({ length: 200_000 }, () => ({})));
    const { error } = validate(Type.Array(Row), rows.array);
    expect(error?.message).toBe('[0].sku is required, [0].quantity is required');
    expect(error?.validation).toHaveLength(1);
    expect(rows.reads()).toBeLessThan(10);
  });

  test('the first bad element is named by its place, deep inside an object', () => {
    const rows = counted([...Array.from({ length: 99 }, () => ({ sku: 'A', quantity: 1 })), { sku: 'B', quantity: 0 }]);
    const { error } = validate(Body, { name: 'n', rows: rows.array });
    expect(error?.message).toBe('rows[99].quantity must be >= 1');
    // The rows before it are checked once by the fast check and once to find the bad one, never more.
    expect(rows.reads()).toBeLessThanOrEqual(2 * 100 + 5);
  });

  test('a list sent where a list or an object is taken is checked as the list, without walking all of it', () => {
    const Either = Type.Union([Type.Object({ rows: Type.Array(Row) }), Type.Array(Row, { maxItems: 100 })]);
    const tooMany = counted(Array.from({ length: 200_000 }, () => ({})));
    expect(validate(Either, tooMany.array).error?.message).toBe('body must have at most 100 items');
    expect(tooMany.reads()).toBeLessThan(10);
    const bad = counted([{ sku: 'A', quantity: 1 }, { sku: 'B' }]);
    expect(validate(Either, bad.array).error?.message).toBe('[1].quantity is required');
    const inside = counted(Array.from({ length: 200_000 }, () => ({})));
    expect(validate(Either, { rows: inside.array }).error?.message).toBe(
      'rows[0].sku is required, rows[0].quantity is required',
    );
    expect(inside.reads()).toBeLessThan(10);
  });

  test('a problem with the object itself comes before problems inside its fields', () => {
    const { error } = validate(Body, { rows: [{}] });
    expect(error?.message).toBe('name is required');
  });

  test('a schema that refers to its own definitions is answered with its first problem too', () => {
    const Node = Type.Cyclic(
      { Node: Type.Object({ id: Type.String(), next: Type.Optional(Type.Ref('Node')) }) },
      'Node',
    );
    expect(validate(Node, { id: 'a', next: { id: 5 } }).error?.message).toBe('next.id must be string');
  });

  test('a good value passes', () => {
    const body = { name: 'n', rows: [{ sku: 'A', quantity: 2 }] };
    expect(validate(Body, body)).toEqual({ value: body });
  });
});

describe('a request with too many items', () => {
  let app: ServiceApp;
  beforeAll(async () => {
    app = createServiceApp({ name: 'demo', logger: false });
    app.post('/rows', { schema: { body: Body } }, async () => ({ ok: true }));
    await app.ready();
  });
  afterAll(() => app.close());

  test('is a 400 naming the array and its maximum', async () => {
    const rows = Array.from({ length: 101 }, () => ({ sku: 'A', quantity: 1 }));
    const res = await app.inject({ method: 'POST', url: '/rows', payload: { name: 'n', rows } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'rows must have at most 100 items' });
  });

  test('is refused before its elements are looked at, even for text that could never be stored', async () => {
    const rows = Array.from({ length: 20_000 }, () => ({ sku: 'A\u0000', quantity: 1 }));
    const res = await app.inject({ method: 'POST', url: '/rows', payload: { name: 'n', rows } });
    expect(res.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'rows must have at most 100 items' });
  });
});
