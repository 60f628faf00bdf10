import { AppError } from '@flatship/kit';
import { LIMITS, normaliseEmail } from '@flatship/proto';
import { MESSAGES } from './messages';

// Pure rules shared by registration, account updates and the admin bootstrap.

// In proto because the gateway's per-email login limit must read an email exactly as auth does.
export { normaliseEmail };

// Deliberately loose: one @, no spaces, a dot in the domain. Stricter
// patterns refuse real addresses; the mailbox is what proves an address.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export function isValidEmail(normalisedEmail: string): boolean {
  return normalisedEmail.length <= LIMITS.emailMax && EMAIL_PATTERN.test(normalisedEmail);
}

export function assertValidEmail(normalisedEmail: string): void {
  if (!isValidEmail(normalisedEmail)) throw new AppError('AUTH_INVALID_EMAIL', MESSAGES.invalidEmail);
}

export function assertValidName(trimmedName: string): void {
  if (trimmedName.length === 0) throw new AppError('VALIDATION_FAILED', MESSAGES.nameRequired);
  if (trimmedName.length > LIMITS.nameMax) throw new AppError('VALIDATION_FAILED', MESSAGES.nameTooLong);
}

/** Passwords are checked as typed: spaces count, nothing is trimmed. */
export function assertValidPassword(password: string): void {
  if (password.length < LIMITS.passwordMin) throw new AppError('AUTH_WEAK_PASSWORD', MESSAGES.passwordTooShort);
  if (password.length > LIMITS.passwordMax) throw new AppError('AUTH_WEAK_PASSWORD', MESSAGES.passwordTooLong);
}

export interface RegistrationInput {
  name: string;
  email: string;
  password: string;
  confirmPassword: string;
  referralCode?: string | null;
}

export interface ValidRegistration {
  name: string;
  email: string;
  password: string;
  /** Normalised, or null when none was given. */
  referralCode: string | null;
}

/** Checks a registration in the order the form reports problems, and returns it normalised. */
export function validateRegistration(input: RegistrationInput): ValidRegistration {
  const name = input.name.trim();
  const email = normaliseEmail(input.email);
  if (!name || !email || !input.password.trim() || !input.confirmPassword.trim()) {
    throw new AppError('AUTH_FIELDS_MISSING', MESSAGES.fieldsMissing);
  }
  if (input.password !== input.confirmPassword) throw new AppError('AUTH_PASSWORD_MISMATCH', MESSAGES.passwordMismatch);
  assertValidName(name);
  assertValidEmail(email);
  assertValidPassword(input.password);
  const code = normaliseReferralCode(input.referralCode ?? '');
  return { name, email, password: input.password, referralCode: code || null };
}

/** Referral codes are matched case-insensitively and without surrounding spaces. */
export function normaliseReferralCode(code: string): string {
  return code.trim().toUpperCase();
}

// Shared with the web app, which checks the same before saving.
export { isValidChosenReferralCode } from '@flatship/proto';
