import { describe, expect, it } from 'vitest';
import { queryString } from './query-string';

describe('queryString', () => {
  it('keeps the order of the parameters and sends numbers and booleans as text', () => {
    expect(queryString({ page: 2, limit: 25, sort: 'createdAt', order: 'desc', active: true })).toBe(
      'page=2&limit=25&sort=createdAt&order=desc&active=true',
    );
  });

  it('leaves out parts that are not set (undefined, null, empty text), but not 0 or false', () => {
    expect(queryString({ page: 1, userId: undefined, status: null, search: '', from: '2026-03-01' })).toBe(
      'page=1&from=2026-03-01',
    );
    expect(queryString({ page: 0, archived: false })).toBe('page=0&archived=false');
    expect(queryString({ search: '', userId: undefined })).toBe('');
    expect(queryString({})).toBe('');
  });

  it('sends a list as the same name once per item, leaving out items that are not set', () => {
    expect(queryString({ status: ['failed', '', 'refunded'], page: 1 })).toBe('status=failed&status=refunded&page=1');
    expect(queryString({ ids: [1, 2] })).toBe('ids=1&ids=2');
    expect(queryString({ status: [], page: 1 })).toBe('page=1');
  });

  it('encodes names and values as a form does, so they read back unchanged', () => {
    const params = { search: 'Jo & Bo = 50% +1 #2 ?é/', 'a b': 'x' };
    const text = queryString(params);
    expect(text).toBe('search=Jo+%26+Bo+%3D+50%25+%2B1+%232+%3F%C3%A9%2F&a+b=x');
    expect(Object.fromEntries(new URLSearchParams(text))).toEqual(params);
  });
});
