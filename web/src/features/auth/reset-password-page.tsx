import './password-reset-feature';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { selectPasswordReset } from './password-reset-selectors';
import { newPasswordSubmitted, passwordResetFormOpened } from './password-reset-slice';

/** The same rules as registration, checked here first so a typo never spends the link. */
export const RESET_FORM_MESSAGES = {
  fieldsMissing: 'Please fill in all fields',
  mismatch: "Passwords don't match",
  tooShort: 'Password must be at least 8 characters',
  missingToken: 'This password reset link is incomplete. Please ask for a new one.',
} as const;
const PASSWORD_MIN = 8;

/** Where a reset link lands: /reset-password?token=… */
export function ResetPasswordPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token')?.trim() ?? '';
  const { resetStatus, resetMessage, resetError } = useAppSelector(selectPasswordReset);
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const isBusy = resetStatus === 'loading';

  useEffect(() => {
    dispatch(passwordResetFormOpened());
  }, [dispatch]);

  useEffect(() => {
    // The login page shows the confirmation; the old password no longer works anywhere.
    if (resetStatus === 'succeeded') navigate('/login', { replace: true, state: { notice: resetMessage } });
  }, [resetStatus, resetMessage, navigate]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!password.trim() || !confirmPassword.trim()) return setFormError(RESET_FORM_MESSAGES.fieldsMissing);
    if (password !== confirmPassword) return setFormError(RESET_FORM_MESSAGES.mismatch);
    if (password.length < PASSWORD_MIN) return setFormError(RESET_FORM_MESSAGES.tooShort);
    setFormError(null);
    dispatch(newPasswordSubmitted({ token, password }));
  };

  const error = formError ?? (resetStatus === 'failed' ? resetError : null);

  return (
    <section className="auth-card card" aria-labelledby="reset-heading">
      <h1 id="reset-heading" className="auth-card__title">
        Choose a new password
      </h1>
      {token ? (
        <>
          <p className="auth-card__subtitle">Setting a new password signs you out on every other device.</p>
          {error ? (
            <div className="alert alert--error" role="alert">
              {error}
            </div>
          ) : null}
          {/* noValidate: the screen gives its own messages for empty and mismatched fields. */}
          <form onSubmit={onSubmit} noValidate>
            <div className="field">
              <label className="field__label" htmlFor="reset-password">
                New password
              </label>
              <input
                id="reset-password"
                className="input"
                type="password"
                name="password"
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </div>
            <div className="field">
              <label className="field__label" htmlFor="reset-confirm">
                Confirm new password
              </label>
              <input
                id="reset-confirm"
                className="input"
                type="password"
                name="confirmPassword"
                autoComplete="new-password"
                value={confirmPassword}
                onChange={(e) => setConfirmPassword(e.target.value)}
              />
            </div>
            <button type="submit" className="button button--primary button--block" disabled={isBusy} aria-busy={isBusy}>
              {isBusy ? 'Saving...' : 'Set new password'}
            </button>
          </form>
        </>
      ) : (
        <div className="alert alert--error" role="alert">
          {RESET_FORM_MESSAGES.missingToken}
        </div>
      )}
      <p className="auth-card__footer">
        <Link to="/forgot-password">Ask for a new link</Link> · <Link to="/login">Back to login</Link>
      </p>
    </section>
  );
}
