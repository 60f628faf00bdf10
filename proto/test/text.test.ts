import { describe, expect, test } from 'vitest';
import { textProblem, textProblemMessage } from '../src/text';

describe('textProblem', () => {
  test.each([
    ['', null],
    ['Ada Lovelace', null],
    ['Zoë Ñúñez 北京 Straße', null],
    ['📦 parcel 👍🏽', null],
    ['½ € © ™ “quotes” – dash', null],
    ['\ufffd replacement character', null],
  ])('%j is fine', (text, problem) => {
    expect(textProblem(text)).toBe(problem);
  });

  test.each([
    ['NUL', 'a\u0000b'],
    ['NUL at the end', 'ab\u0000'],
    ['a lone high surrogate', 'a\ud800b'],
    ['a high surrogate at the end', 'ab\ud83d'],
    ['a lone low surrogate', '\udc00ab'],
    ['surrogates in the wrong order', '\udc00\ud800'],
    ['bell', '\u0007'],
    ['escape', '\u001b[0m'],
    ['vertical tab', 'a\u000bb'],
    ['form feed', 'a\u000cb'],
    ['DEL', 'a\u007fb'],
    ['next line (C1)', 'a\u0085b'],
    ['NUL after a line break', 'a\nb\u0000'],
  ])('%s is not allowed anywhere', (_, text) => {
    expect(textProblem(text)).toBe('not-allowed');
    expect(textProblem(text, true)).toBe('not-allowed');
  });

  test.each([
    ['line feed', 'a\nb'],
    ['carriage return and line feed', 'a\r\nb'],
    ['tab', 'a\tb'],
    ['line separator', 'a\u2028b'],
    ['paragraph separator', 'a\u2029b'],
  ])('a %s is refused on one line and kept in free text', (_, text) => {
    expect(textProblem(text)).toBe('line-break');
    expect(textProblem(text, true)).toBe(null);
  });

  test('messages name the field', () => {
    expect(textProblemMessage('receiver.receiver_name', 'not-allowed')).toBe(
      'receiver.receiver_name contains a character that is not allowed',
    );
    expect(textProblemMessage('Recipient name', 'line-break')).toBe(
      'Recipient name must be a single line without tabs',
    );
  });
});
