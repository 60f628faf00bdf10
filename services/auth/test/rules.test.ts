import { AppError } from '@flatship/kit';
import { describe, expect, test } from 'vitest';
import { generateReferralCode, REFERRAL_ALPHABET, REFERRAL_CODE_LENGTH } from '../src/domain/referral-code';
import {
  assertValidName,
  assertValidPassword,
  isValidEmail,
  normaliseEmail,
  normaliseReferralCode,
  validateRegistration,
} from '../src/domain/rules';

const valid = { name: 'Ada', email: 'ada@example.com', password: 'longenough', confirmPassword: 'longenough' };

function errorOf(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected an AppError');
}

describe('registration rules', () => {
  test('a valid registration comes back trimmed, with the email lowercased and no referral code', () => {
    expect(validateRegistration({ ...valid, name: '  Ada  ', email: '  Ada@Example.COM ' })).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      password: 'longenough',
      referralCode: null,
    });
  });

  test.each([
    ['name', { name: '   ' }],
    ['email', { email: '' }],
    ['password', { password: ' ', confirmPassword: ' ' }],
    ['confirmPassword', { confirmPassword: '  ' }],
  ])('an empty %s asks to fill in all fields', (_field, over) => {
    expect(errorOf(() => validateRegistration({ ...valid, ...over }))).toEqual({
      code: 'AUTH_FIELDS_MISSING',
      message: 'Please fill in all fields',
    });
  });

  test('passwords that differ are refused before anything else is judged', () => {
    expect(errorOf(() => validateRegistration({ ...valid, email: 'nope', confirmPassword: 'different1' }))).toEqual({
      code: 'AUTH_PASSWORD_MISMATCH',
      message: "Passwords don't match",
    });
  });

  test('a name of 200 characters is accepted, 201 is refused', () => {
    expect(validateRegistration({ ...valid, name: 'n'.repeat(200) }).name).toHaveLength(200);
    expect(errorOf(() => validateRegistration({ ...valid, name: 'n'.repeat(201) }))).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Name must be at most 200 characters',
    });
  });

  test('passwords are measured as typed: 7 refused, 8 and 200 accepted, 201 refused', () => {
    const pw = (n: number) => ({ ...valid, password: 'p'.repeat(n), confirmPassword: 'p'.repeat(n) });
    expect(errorOf(() => validateRegistration(pw(7)))).toEqual({
      code: 'AUTH_WEAK_PASSWORD',
      message: 'Password must be at least 8 characters',
    });
    expect(validateRegistration(pw(8)).password).toHaveLength(8);
    expect(validateRegistration(pw(200)).password).toHaveLength(200);
    expect(errorOf(() => validateRegistration(pw(201)))).toEqual({
      code: 'AUTH_WEAK_PASSWORD',
      message: 'Password must be at most 200 characters',
    });
    // Surrounding spaces are part of the password, not trimmed away.
    expect(validateRegistration({ ...valid, password: ' 1234567 ', confirmPassword: ' 1234567 ' }).password).toBe(
      ' 1234567 ',
    );
  });

  test('a referral code is normalised; a blank one counts as none', () => {
    expect(validateRegistration({ ...valid, referralCode: ' abcd2345 ' }).referralCode).toBe('ABCD2345');
    expect(validateRegistration({ ...valid, referralCode: '   ' }).referralCode).toBeNull();
    expect(validateRegistration({ ...valid, referralCode: null }).referralCode).toBeNull();
  });
});

describe('email rules', () => {
  test('emails are trimmed and lowercased', () => {
    expect(normaliseEmail('  Mixed.Case@Example.ORG\t')).toBe('mixed.case@example.org');
  });

  test.each([
    'plain',
    'no-at.example.com',
    'two@@example.com',
    'a@b',
    'a b@example.com',
    '@example.com',
    'a@.com',
    'a@example.',
  ])('%s is not an email', (email) => {
    expect(isValidEmail(email)).toBe(false);
    expect(errorOf(() => validateRegistration({ ...valid, email }))).toEqual({
      code: 'AUTH_INVALID_EMAIL',
      message: 'Please enter a valid email address',
    });
  });

  test.each(['a@b.co', 'first.last+tag@sub.example.co.uk', "o'brien@example.ie"])('%s is an email', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  test('254 characters is the longest email accepted', () => {
    const at254 = `${'a'.repeat(64)}@${'d'.repeat(185)}.com`;
    expect(at254).toHaveLength(254);
    expect(isValidEmail(at254)).toBe(true);
    expect(isValidEmail(`a${at254}`)).toBe(false);
  });
});

describe('account rules', () => {
  test('a name is required and at most 200 characters', () => {
    expect(errorOf(() => assertValidName(''))).toEqual({ code: 'VALIDATION_FAILED', message: 'Name is required' });
    expect(errorOf(() => assertValidName('x'.repeat(201))).message).toBe('Name must be at most 200 characters');
    expect(() => assertValidName('x'.repeat(200))).not.toThrow();
  });

  test('password length rules are the registration ones', () => {
    expect(errorOf(() => assertValidPassword('short')).message).toBe('Password must be at least 8 characters');
    expect(() => assertValidPassword('12345678')).not.toThrow();
  });
});

describe('referral codes', () => {
  test('a generated code is 8 characters from the unambiguous alphabet', () => {
    for (let i = 0; i < 200; i++) {
      const code = generateReferralCode();
      expect(code).toMatch(/^[A-Z2-9]{8}$/);
      expect(code).toHaveLength(REFERRAL_CODE_LENGTH);
      for (const ch of code) expect(REFERRAL_ALPHABET).toContain(ch);
    }
  });

  test('the alphabet has no characters that read alike', () => {
    for (const ch of ['0', 'O', '1', 'I', 'L']) expect(REFERRAL_ALPHABET).not.toContain(ch);
  });

  test('codes are drawn from the given randomness, covering the whole alphabet', () => {
    const first = generateReferralCode(() => 0);
    const last = generateReferralCode((max) => max - 1);
    expect(first).toBe(REFERRAL_ALPHABET[0]?.repeat(8));
    expect(last).toBe(REFERRAL_ALPHABET.at(-1)?.repeat(8));
  });

  test('codes are matched without case or surrounding spaces', () => {
    expect(normaliseReferralCode('  abCD2345\n')).toBe('ABCD2345');
    expect(normaliseReferralCode('   ')).toBe('');
  });
});
