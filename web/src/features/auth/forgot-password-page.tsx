import './password-reset-feature';
import { type FormEvent, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { selectPasswordReset } from './password-reset-selectors';
import { passwordResetFormOpened, resetLinkRequested } from './password-reset-slice';

/** Asks for a reset link by email. The answer is the same whether or not the email has an account. */
export function ForgotPasswordPage() {
  const dispatch = useAppDispatch();
  const { linkStatus, linkMessage, linkError } = useAppSelector(selectPasswordReset);
  const [email, setEmail] = useState('');
  const isBusy = linkStatus === 'loading';

  useEffect(() => {
    dispatch(passwordResetFormOpened());
  }, [dispatch]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    dispatch(resetLinkRequested(email.trim()));
  };

  return (
    <section className="auth-card card" aria-labelledby="forgot-heading">
      <h1 id="forgot-heading" className="auth-card__title">
        Reset your password
      </h1>
      {linkStatus === 'succeeded' ? (
        <div className="alert alert--info" role="status">
          <p className="auth-card__notice-title">Check your inbox</p>
          <p className="auth-card__notice-text">{linkMessage}</p>
        </div>
      ) : (
        <>
          <p className="auth-card__subtitle">
            Enter the email address of your Flatship account and we will send you a link to choose a new password.
          </p>
          {linkStatus === 'failed' && linkError ? (
            <div className="alert alert--error" role="alert">
              {linkError}
            </div>
          ) : null}
          <form onSubmit={onSubmit}>
            <div className="field">
              <label className="field__label" htmlFor="forgot-email">
                Email
              </label>
              <input
                id="forgot-email"
                className="input"
                type="email"
                name="email"
                autoComplete="email"
                required
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            </div>
            <button type="submit" className="button button--primary button--block" disabled={isBusy} aria-busy={isBusy}>
              {isBusy ? 'Sending...' : 'Send reset link'}
            </button>
          </form>
        </>
      )}
      <p className="auth-card__footer">
        <Link to="/login">Back to login</Link>
      </p>
    </section>
  );
}
