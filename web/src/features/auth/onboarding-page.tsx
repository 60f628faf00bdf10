import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { BrandMark } from '../../components/icons';
import { newcomerBonusText } from '../referral-bonus/referral-bonus-text';
import { selectReferralError, selectReferralStatus, selectReferralTerms } from './auth-selectors';
import { referralApplySubmitted, referralFormOpened, referralTermsRequested } from './auth-slice';
import './auth.css';

/** Spec: after a successful apply the user moves on after 1.5 s. */
export const REFERRAL_REDIRECT_DELAY = 1500;

export function OnboardingPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const status = useAppSelector(selectReferralStatus);
  const error = useAppSelector(selectReferralError);
  // Exactly what the bonus is, from the settings; with the program off nothing is promised.
  const bonusText = newcomerBonusText(useAppSelector(selectReferralTerms));
  const [code, setCode] = useState('');
  const trimmed = code.trim();
  const isBusy = status === 'loading';
  const isDone = status === 'succeeded';

  useEffect(() => {
    dispatch(referralFormOpened());
    dispatch(referralTermsRequested());
  }, [dispatch]);

  useEffect(() => {
    if (!isDone) return;
    const timer = window.setTimeout(() => navigate('/main/dashboard'), REFERRAL_REDIRECT_DELAY);
    return () => window.clearTimeout(timer);
  }, [isDone, navigate]);

  const skip = () => navigate('/main/dashboard');
  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    // An empty code means skip: no call.
    if (!trimmed) skip();
    else dispatch(referralApplySubmitted(trimmed));
  };

  return (
    <div className="auth-layout">
      <header className="onboarding__brand">
        <Link to="/" className="onboarding__logo" aria-label="Flatship home">
          <BrandMark />
          <span>Flatship</span>
        </Link>
      </header>
      <main className="auth-layout__main">
        <section className="auth-card card onboarding" aria-labelledby="onboarding-heading">
          <h1 id="onboarding-heading" className="auth-card__title">
            Welcome to Our Platform!
          </h1>
          <h2 className="onboarding__prompt">Got a Referral Code?</h2>
          {bonusText ? (
            <>
              <p className="auth-card__subtitle">Enter your referral code to claim your bonus rewards!</p>
              <p className="onboarding__bonus" data-testid="referral-bonus-terms">
                {bonusText}
              </p>
            </>
          ) : (
            <p className="auth-card__subtitle">Enter the referral code of the friend who invited you.</p>
          )}
          {isDone ? (
            <div className="alert alert--success" role="status">
              Referral code applied successfully!
            </div>
          ) : null}
          {status === 'failed' && error ? (
            <div className="alert alert--error" role="alert">
              {error}
            </div>
          ) : null}
          <form onSubmit={onSubmit}>
            <div className="field">
              <label className="field__label" htmlFor="onboarding-code">
                Referral code
              </label>
              <input
                id="onboarding-code"
                className="input"
                name="referralCode"
                autoComplete="off"
                value={code}
                disabled={isDone}
                onChange={(e) => setCode(e.target.value)}
              />
            </div>
            <div className="onboarding__actions">
              <button
                type="submit"
                className="button button--primary button--block"
                disabled={isBusy || isDone}
                aria-busy={isBusy}
              >
                {trimmed ? 'Apply Code' : 'Skip for now'}
              </button>
              {trimmed ? (
                <button
                  type="button"
                  className="button button--ghost button--block"
                  onClick={skip}
                  disabled={isBusy || isDone}
                >
                  Skip for now
                </button>
              ) : null}
            </div>
          </form>
        </section>
      </main>
    </div>
  );
}
