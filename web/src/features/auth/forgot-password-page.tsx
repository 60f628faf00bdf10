import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';

/** Password resets are done by support for now: the page says so instead of pretending to send an email. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [isSubmitted, setIsSubmitted] = useState(false);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setIsSubmitted(true);
  };

  return (
    <section className="auth-card card" aria-labelledby="forgot-heading">
      <h1 id="forgot-heading" className="auth-card__title">
        Reset your password
      </h1>
      {isSubmitted ? (
        <div className="alert alert--info" role="status">
          <p className="auth-card__notice-title">Password resets are handled by our support team for now.</p>
          <p className="auth-card__notice-text">
            Contact our 24/7 support through the chat widget and we will reset it for you. Mention the email{' '}
            <strong>{email.trim()}</strong> so we can find your account.
          </p>
        </div>
      ) : (
        <>
          <p className="auth-card__subtitle">Enter the email address of your Flatship account.</p>
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
            <button type="submit" className="button button--primary button--block">
              Reset password
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
