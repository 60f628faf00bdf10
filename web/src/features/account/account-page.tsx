import '../shell/user-area';
import { type AccountUpdateBody, LIMITS } from '@flatship/proto';
import { type FormEvent, useEffect, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { selectUser } from '../auth/auth-selectors';
import { PrintSettingsCard } from '../print-settings/print-settings-card';
import { selectAccountError, selectAccountMessage, selectAccountStatus } from './account-selectors';
import { accountFormOpened, accountUpdateSubmitted } from './account-slice';
import './account.css';

interface PasswordForm {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

const NO_PASSWORDS: PasswordForm = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** The first rule the form breaks, or null. Blank password fields mean "keep the password". */
export function validateAccountForm(name: string, passwords: PasswordForm): string | null {
  if (!name.trim()) return 'Name is required';
  const isChangingPassword = passwords.newPassword !== '' || passwords.confirmPassword !== '';
  if (!isChangingPassword) return null;
  if (passwords.newPassword.length < LIMITS.passwordMin)
    return `Password must be at least ${LIMITS.passwordMin} characters`;
  if (passwords.newPassword !== passwords.confirmPassword) return "Passwords don't match";
  if (!passwords.currentPassword) return 'Current password is required to set a new password';
  return null;
}

/** The profile and the print setting. */
export function AccountPage() {
  return (
    <>
      <ProfileCard />
      <PrintSettingsCard />
    </>
  );
}

function ProfileCard() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const status = useAppSelector(selectAccountStatus);
  const message = useAppSelector(selectAccountMessage);
  const serverError = useAppSelector(selectAccountError);
  const [name, setName] = useState(user?.name ?? '');
  const [passwords, setPasswords] = useState<PasswordForm>(NO_PASSWORDS);
  const [formError, setFormError] = useState<string | null>(null);
  const isBusy = status === 'loading';

  useEffect(() => {
    dispatch(accountFormOpened());
  }, [dispatch]);

  useEffect(() => {
    if (status === 'succeeded') setPasswords(NO_PASSWORDS);
  }, [status]);

  const setPassword = (key: keyof PasswordForm) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setPasswords((p) => ({ ...p, [key]: event.target.value }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const problem = validateAccountForm(name, passwords);
    setFormError(problem);
    if (problem) return;
    const body: AccountUpdateBody = { name: name.trim() };
    if (passwords.newPassword) {
      body.currentPassword = passwords.currentPassword;
      body.newPassword = passwords.newPassword;
    }
    dispatch(accountUpdateSubmitted(body));
  };

  const error = formError ?? (status === 'failed' ? serverError : null);

  return (
    <section className="card account" aria-labelledby="account-heading">
      <h2 id="account-heading" className="account__heading">
        Profile
      </h2>
      <p className="account__intro">Update your name or password. Your email address identifies the account.</p>
      {error ? (
        <div className="alert alert--error" role="alert">
          {error}
        </div>
      ) : null}
      {!error && status === 'succeeded' && message ? (
        <div className="alert alert--success" role="status">
          {message}
        </div>
      ) : null}
      <form onSubmit={onSubmit} noValidate>
        <div className="account__grid">
          <div className="field">
            <label className="field__label" htmlFor="account-name">
              Name
            </label>
            <input
              id="account-name"
              className="input"
              name="name"
              autoComplete="name"
              required
              maxLength={LIMITS.nameMax}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <div className="field">
            <label className="field__label" htmlFor="account-email">
              Email
            </label>
            <input
              id="account-email"
              className="input"
              type="email"
              name="email"
              required
              disabled
              value={user?.email ?? ''}
            />
          </div>
        </div>
        <fieldset className="account__passwords">
          <legend className="account__legend">Change password</legend>
          <p className="field__hint account__hint">Leave these blank to keep your current password.</p>
          <div className="field">
            <label className="field__label" htmlFor="account-current">
              Current password
            </label>
            <input
              id="account-current"
              className="input"
              type="password"
              name="currentPassword"
              autoComplete="current-password"
              value={passwords.currentPassword}
              onChange={setPassword('currentPassword')}
            />
          </div>
          <div className="account__grid">
            <div className="field">
              <label className="field__label" htmlFor="account-new">
                New password
              </label>
              <input
                id="account-new"
                className="input"
                type="password"
                name="newPassword"
                autoComplete="new-password"
                value={passwords.newPassword}
                onChange={setPassword('newPassword')}
              />
            </div>
            <div className="field">
              <label className="field__label" htmlFor="account-confirm">
                Confirm new password
              </label>
              <input
                id="account-confirm"
                className="input"
                type="password"
                name="confirmPassword"
                autoComplete="new-password"
                value={passwords.confirmPassword}
                onChange={setPassword('confirmPassword')}
              />
            </div>
          </div>
        </fieldset>
        <div className="account__actions">
          <button type="submit" className="button button--primary" disabled={isBusy} aria-busy={isBusy}>
            {isBusy ? 'Saving...' : 'Save changes'}
          </button>
        </div>
      </form>
    </section>
  );
}
