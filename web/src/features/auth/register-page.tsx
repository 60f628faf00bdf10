import type { RegisterBody } from '@flatship/proto';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { newcomerBonusText } from '../referral-bonus/referral-bonus-text';
import { selectAuthError, selectAuthStatus, selectReferralTerms } from './auth-selectors';
import { authFormOpened, referralTermsRequested, registerSubmitted } from './auth-slice';

interface RegisterForm {
  name: string;
  email: string;
  password: string;
  confirmPassword: string;
}

const EMPTY: RegisterForm = { name: '', email: '', password: '', confirmPassword: '' };

export function RegisterPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const referralCode = searchParams.get('ref')?.trim() || null;
  const status = useAppSelector(selectAuthStatus);
  const serverError = useAppSelector(selectAuthError);
  const [form, setForm] = useState<RegisterForm>(EMPTY);
  const [formError, setFormError] = useState<string | null>(null);
  const [hasSubmitted, setHasSubmitted] = useState(false);
  const isBusy = status === 'loading';

  useEffect(() => {
    dispatch(authFormOpened());
  }, [dispatch]);

  // Someone who came with an invite link is told what the code brings (or nothing, when there is no bonus).
  const bonusText = newcomerBonusText(useAppSelector(selectReferralTerms));
  useEffect(() => {
    if (referralCode) dispatch(referralTermsRequested());
    // A refusal was about the code: leaving the code out starts afresh, with what was typed kept.
    setHasSubmitted(false);
  }, [referralCode, dispatch]);

  useEffect(() => {
    // With a referral code the bonus is already claimed, so the onboarding prompt is skipped.
    if (hasSubmitted && status === 'succeeded') navigate(referralCode ? '/main/dashboard' : '/onboarding');
  }, [hasSubmitted, status, navigate, referralCode]);

  const set = (key: keyof RegisterForm) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setForm((f) => ({ ...f, [key]: event.target.value }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const name = form.name.trim();
    const email = form.email.trim();
    if (!name || !email || !form.password || !form.confirmPassword) {
      setFormError('Please fill in all fields');
      return;
    }
    if (form.password !== form.confirmPassword) {
      setFormError("Passwords don't match");
      return;
    }
    setFormError(null);
    setHasSubmitted(true);
    const body: RegisterBody = { name, email, password: form.password, confirmPassword: form.confirmPassword };
    if (referralCode) body.referralCode = referralCode;
    dispatch(registerSubmitted(body));
  };

  const error = formError ?? (hasSubmitted && status === 'failed' ? serverError : null);

  return (
    <section className="auth-card card" aria-labelledby="register-heading">
      <h1 id="register-heading" className="auth-card__title">
        Create an Account
      </h1>
      <p className="auth-card__subtitle">One flat price per label, whatever the weight.</p>
      {error ? (
        <div className="alert alert--error" role="alert">
          {error}
        </div>
      ) : null}
      {/* noValidate: the screen gives its own messages for empty and mismatched fields. */}
      <form onSubmit={onSubmit} noValidate>
        <div className="field">
          <label className="field__label" htmlFor="register-name">
            Name
          </label>
          <input
            id="register-name"
            className="input"
            name="name"
            autoComplete="name"
            required
            value={form.name}
            onChange={set('name')}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="register-email">
            Email
          </label>
          <input
            id="register-email"
            className="input"
            type="email"
            name="email"
            autoComplete="email"
            required
            value={form.email}
            onChange={set('email')}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="register-password">
            Password
          </label>
          <input
            id="register-password"
            className="input"
            type="password"
            name="password"
            autoComplete="new-password"
            required
            value={form.password}
            onChange={set('password')}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="register-confirm">
            Confirm password
          </label>
          <input
            id="register-confirm"
            className="input"
            type="password"
            name="confirmPassword"
            autoComplete="new-password"
            required
            value={form.confirmPassword}
            onChange={set('confirmPassword')}
          />
        </div>
        {referralCode ? (
          <div className="field">
            <label className="field__label" htmlFor="register-referral">
              Referral code
            </label>
            <input id="register-referral" className="input" name="referralCode" value={referralCode} readOnly />
            {bonusText ? (
              <span className="field__hint register__bonus" data-testid="referral-bonus-terms">
                {bonusText}
              </span>
            ) : (
              <span className="field__hint">This code links your account to the friend who invited you.</span>
            )}
            <Link to="/register" className="field__hint register__without-code">
              Register without this code
            </Link>
          </div>
        ) : null}
        <button type="submit" className="button button--primary button--block" disabled={isBusy} aria-busy={isBusy}>
          {isBusy ? 'Creating account...' : 'Register'}
        </button>
      </form>
      <p className="auth-card__footer">
        Already have an account? <Link to="/login">Login</Link>
      </p>
    </section>
  );
}
