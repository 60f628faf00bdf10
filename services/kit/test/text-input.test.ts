import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServiceApp, type ServiceApp } from '../src/app';

// Every service is built by createServiceApp, so what it refuses here no route of any service
// ever sees: text PostgreSQL cannot store, text that is not valid Unicode, and control characters.
let app: ServiceApp;
const seen: unknown[] = [];

beforeAll(async () => {
  app = createServiceApp({ name: 'demo', logger: false });
  app.post(
    '/things/:id',
    {
      schema: {
        params: Type.Object({ id: Type.String() }),
        querystring: Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1 })) }),
        body: Type.Object({
          name: Type.String(),
          note: Type.Optional(Type.String({ multiline: true })),
          password: Type.Optional(Type.String({ multiline: true })),
          rows: Type.Optional(
            Type.Array(Type.Object({ address1: Type.Optional(Type.Union([Type.String(), Type.Null()])) })),
          ),
        }),
      },
    },
    async (req) => {
      seen.push(req.body);
      return { ok: true, query: req.query };
    },
  );
  // No schema at all: the check does not depend on a route declaring one.
  app.post('/loose', async (req) => {
    seen.push(req.body);
    return { ok: true };
  });
  app.get('/search', async (req) => ({ query: req.query }));
  app.get('/files/*', async () => ({ ok: true }));
  await app.ready();
});
afterAll(() => app.close());

const post = (payload: unknown, url = '/things/a') => app.inject({ method: 'POST', url, payload: payload as object });
const refused = (message: string) => ({ code: 'VALIDATION_FAILED', message });
const notAllowed = (path: string) => refused(`${path} contains a character that is not allowed`);

describe('text that cannot be stored or shown', () => {
  test.each([
    ['NUL', '\u0000'],
    ['a lone high surrogate', '\ud800'],
    ['a lone low surrogate', '\udc00'],
    ['a low surrogate before a high one', '\udc00\ud800'],
    ['escape', '\u001b[31m'],
    ['backspace', '\b'],
    ['DEL', '\u007f'],
    ['a C1 control', '\u0085'],
  ])('%s in a field is a 400 naming the field; the route never runs', async (_, bad) => {
    seen.length = 0;
    const res = await post({ name: `Ada${bad}Lovelace` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(notAllowed('name'));
    expect(seen).toEqual([]);
  });

  test('the path of a nested field is named, array indexes in brackets', async () => {
    const res = await post({
      name: 'Ada',
      rows: [{ address1: '1 Main St' }, { address1: null }, { address1: 'x\u0000' }],
    });
    expect(res.json()).toEqual(notAllowed('rows[2].address1'));
  });

  test('the first bad field in the order sent is the one named', async () => {
    const res = await post({ name: 'Ada', rows: [{ address1: '\ud800' }], note: '\u0000' });
    expect(res.json()).toEqual(notAllowed('rows[0].address1'));
  });

  test('fields the schema does not declare, and routes without a schema, are checked too', async () => {
    expect((await post({ name: 'Ada', extra: { deep: ['ok', 'b\u0000d'] } })).json()).toEqual(
      notAllowed('extra.deep[1]'),
    );
    expect((await post({ a: '\ud800' }, '/loose')).json()).toEqual(notAllowed('a'));
  });

  test('a field name with such a character is refused as well', async () => {
    const res = await post({ name: 'Ada', 'bad\u0000key': 1 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(refused('body has a field name with a character that is not allowed'));
  });

  test('query strings and path parameters are checked', async () => {
    const q = await app.inject({ method: 'GET', url: '/search?term=a%00b' });
    expect(q.statusCode).toBe(400);
    expect(q.json()).toEqual(notAllowed('term'));
    const p = await app.inject({ method: 'POST', url: '/things/a%00', payload: { name: 'Ada' } });
    expect(p.json()).toEqual(notAllowed('id'));
    const wildcard = await app.inject({ method: 'GET', url: '/files/a/b%00c' });
    expect(wildcard.json()).toEqual(notAllowed('path'));
  });

  test('a deeply nested body is walked without exhausting the stack', async () => {
    const depth = 200_000;
    const res = await app.inject({
      method: 'POST',
      url: '/loose',
      headers: { 'content-type': 'application/json' },
      payload: `${'['.repeat(depth)}"ok"${']'.repeat(depth)}`,
    });
    expect(res.statusCode).toBe(200);
  });

  test('a body that is text and not an object is checked as "body"', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/loose',
      headers: { 'content-type': 'text/plain' },
      payload: 'a\u0000b',
    });
    expect(res.json()).toEqual(notAllowed('body'));
  });

  test('a body that is text is a document: its lines and tabs pass', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/loose',
      headers: { 'content-type': 'text/plain' },
      payload: 'a,b\n"x,\ty",2\r\n',
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('bytes that are not UTF-8', () => {
  const raw = (parts: (string | number[])[], url = '/things/a', contentType = 'application/json') =>
    app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': contentType },
      payload: Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p)))),
    });
  const notUtf8 = (path: string) => refused(`${path} is not valid UTF-8 text`);

  test.each([
    ['two stray bytes', [0xff, 0xfe]],
    ['a continuation byte alone', [0x80]],
    ['a cut-off sequence', [0xe2, 0x82]],
    ['an overlong encoding', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['beyond U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ])('%s in a field is a 400 naming the field; the route never runs', async (_, bytes) => {
    seen.length = 0;
    const res = await raw(['{"name":"a', bytes, 'b"}']);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(notUtf8('name'));
    expect(seen).toEqual([]);
  });

  test('the field named is the one holding the bytes, not one holding a real U+FFFD', async () => {
    const res = await raw([
      '{"name":"Ada \ufffd","note":"\ufffd escaped","rows":[{"address1":"ok �"},{"address1":"x',
      [0xff],
      '"}]}',
    ]);
    expect(res.json()).toEqual(notUtf8('rows[1].address1'));
    const sameField = await raw(['{"name":"� then ', [0xfe], '"}']);
    expect(sameField.json()).toEqual(notUtf8('name'));
  });

  test('in a field name, or outside any string, the body is named', async () => {
    expect((await raw(['{"name":"Ada","ba', [0xff], 'd":1}'])).json()).toEqual(
      refused('body has a field name that is not valid UTF-8 text'),
    );
    expect((await raw(['{"name":"Ada"}', [0xff]])).json()).toEqual(notUtf8('body'));
    expect((await raw(['{"name":"Ada","rows":[', [0xff], ']}'])).json()).toEqual(notUtf8('body'));
  });

  test('routes without a schema and text bodies are refused the same way', async () => {
    expect((await raw(['{"a":{"b":"', [0xc3], '"}}'], '/loose')).json()).toEqual(notUtf8('a.b'));
    expect((await raw(['{"a":"', [0xc3], '"}'], '/loose', 'application/json; charset=utf-8')).json()).toEqual(
      notUtf8('a'),
    );
    expect((await raw(['a,b\n', [0xff]], '/loose', 'text/plain')).json()).toEqual(notUtf8('body'));
  });

  test('valid UTF-8, a real U+FFFD included, passes untouched; JSON errors stay JSON errors', async () => {
    const body = { name: 'Zoë � 📦', note: '�' };
    const res = await raw([JSON.stringify(body)]);
    expect(res.statusCode).toBe(200);
    expect(seen.at(-1)).toEqual(body);
    const bad = await raw(['{"name":'], '/loose');
    expect(bad.json()).toEqual({ code: 'BAD_JSON', message: 'The request body is not valid JSON' });
    const empty = await raw([''], '/loose');
    expect(empty.json().code).toBe('BAD_JSON');
    const poisoned = await raw(['{"__proto__":{"x":1}}'], '/loose');
    expect(poisoned.statusCode).toBe(400);
  });
});

describe('tabs and line breaks', () => {
  test.each([
    ['a line feed', 'Ada\nLovelace'],
    ['a carriage return', 'Ada\rLovelace'],
    ['a tab', 'Ada\tLovelace'],
    ['a Unicode line separator', 'Ada\u2028Lovelace'],
  ])('%s in a single-line field is refused', async (_, name) => {
    const res = await post({ name });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(refused('name must be a single line without tabs'));
  });

  test('fields marked multiline keep tabs and line breaks, but not NUL', async () => {
    const body = { name: 'Ada', note: 'first line\r\nsecond\tline', password: 'a\tb\nc' };
    const res = await post(body);
    expect(res.statusCode).toBe(200);
    expect(seen.at(-1)).toEqual(body);
    expect((await post({ name: 'Ada', note: 'x\u0000' })).json()).toEqual(notAllowed('note'));
  });
});

describe('ordinary text', () => {
  test('accents, other scripts, emoji and symbols pass untouched', async () => {
    const body = { name: 'Zoë Ñúñez 北京 📦 ½ € "quoted" \\ back', rows: [{ address1: 'Straße 5' }] };
    const res = await post(body);
    expect(res.statusCode).toBe(200);
    expect(seen.at(-1)).toEqual(body);
  });
});

describe('numbers in query strings', () => {
  test.each(['0x10', '1e1', '0b11', '12.5', 'Infinity', ''])('page=%s is not a page number', async (page) => {
    const res = await post({ name: 'Ada' }, `/things/a?page=${encodeURIComponent(page)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
  });

  test('page=16 and page= 16 (spaces trimmed) are 16', async () => {
    expect((await post({ name: 'Ada' }, '/things/a?page=16')).json().query).toEqual({ page: 16 });
    expect((await post({ name: 'Ada' }, '/things/a?page=%2016%20')).json().query).toEqual({ page: 16 });
  });
});
