import { type FormEvent, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { selectAuthError, selectAuthStatus } from './auth-selectors';
import { authFormOpened, loginSubmitted } from './auth-slice';

export function LoginPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  // A confirmation handed over by another page, e.g. after a password reset.
  const notice = (useLocation().state as { notice?: unknown } | null)?.notice;
  const status = useAppSelector(selectAuthStatus);
  const error = useAppSelector(selectAuthError);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [hasSubmitted, setHasSubmitted] = useState(false);
  const isBusy = status === 'loading';

  useEffect(() => {
    dispatch(authFormOpened());
  }, [dispatch]);

  useEffect(() => {
    if (hasSubmitted && status === 'succeeded') navigate('/main/dashboard');
  }, [hasSubmitted, status, navigate]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setHasSubmitted(true);
    dispatch(loginSubmitted({ email: email.trim(), password }));
  };

  return (
    <section className="auth-card card" aria-labelledby="login-heading">
      <h1 id="login-heading" className="auth-card__title">
        Welcome Back!
      </h1>
      <p className="auth-card__subtitle">Sign in to buy labels and track your shipments.</p>
      {typeof notice === 'string' && notice && !hasSubmitted ? (
        <div className="alert alert--info" role="status">
          {notice}
        </div>
      ) : null}
      {hasSubmitted && status === 'failed' && error ? (
        <div className="alert alert--error" role="alert">
          {error}
        </div>
      ) : null}
      <form onSubmit={onSubmit}>
        <div className="field">
          <label className="field__label" htmlFor="login-email">
            Email
          </label>
          <input
            id="login-email"
            className="input"
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <div className="field">
          <div className="auth-card__label-row">
            <label className="field__label" htmlFor="login-password">
              Password
            </label>
            <Link to="/forgot-password" className="auth-card__small-link">
              Forgot password?
            </Link>
          </div>
          <input
            id="login-password"
            className="input"
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <button type="submit" className="button button--primary button--block" disabled={isBusy} aria-busy={isBusy}>
          {isBusy ? 'Logging in...' : 'Login'}
        </button>
      </form>
      <p className="auth-card__footer">
        Don't have an account? <Link to="/register">Create one</Link>
      </p>
    </section>
  );
}
