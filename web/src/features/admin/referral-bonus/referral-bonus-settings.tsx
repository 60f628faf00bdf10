import {
  parseReferralBonusInput,
  REFERRAL_BONUS_FIELD_LABELS,
  type ReferralBonusField,
  type ReferralBonusTerms,
} from '@flatship/proto';
import { type FormEvent, useEffect, useState } from 'react';
import { formatDateTime } from '../../../app/format';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Spinner } from '../../../components/spinner';
import { programText } from '../../referral-bonus/referral-bonus-text';
import type { AdminReferralBonusReply } from './referral-bonus-api';
import {
  referralBonusSettingsRequested,
  referralBonusSettingsSaveRequested,
  selectReferralBonusSettings,
} from './referral-bonus-slice';
import './referral-bonus.css';

type Form = Record<ReferralBonusField, string>;

const FIELDS: { field: ReferralBonusField; hint: string }[] = [
  { field: 'referrerBonus', hint: 'Paid to the user whose code was used. 0 for none.' },
  { field: 'referredBonus', hint: 'Paid to the new user who joined with the code. 0 for none.' },
  { field: 'minimumDeposit', hint: 'The new user’s first deposit must be at least this much. 0 for any amount.' },
];

const formOf = (s: AdminReferralBonusReply): Form => ({
  referrerBonus: s.referrerBonus.toFixed(2),
  referredBonus: s.referredBonus.toFixed(2),
  minimumDeposit: s.minimumDeposit.toFixed(2),
});

const termsOf = (cents: { referrerBonusCents: number; referredBonusCents: number; minimumDepositCents: number }) =>
  ({
    isEnabled: cents.referrerBonusCents > 0 || cents.referredBonusCents > 0,
    referrerBonus: cents.referrerBonusCents / 100,
    referredBonus: cents.referredBonusCents / 100,
    minimumDeposit: cents.minimumDepositCents / 100,
  }) satisfies ReferralBonusTerms;

/**
 * The referral bonus program (admin, referral management): what the referrer and the new user get, in dollars
 * (0 for none; both 0 is the program off), and the minimum first deposit. Checked here with the server's own rules
 * before asking; saving is confirmed with the terms in words, exactly as new users will read them.
 */
export function ReferralBonusSettings() {
  const dispatch = useAppDispatch();
  const { settings, isLoading, loadError, isSaving, saveError } = useAppSelector(selectReferralBonusSettings);
  const [form, setForm] = useState<Form | null>(null);
  const [fieldError, setFieldError] = useState<{ field: ReferralBonusField; message: string } | null>(null);
  const [pending, setPending] = useState<ReturnType<typeof termsOf> | null>(null);

  useEffect(() => {
    dispatch(referralBonusSettingsRequested());
  }, [dispatch]);

  // The form follows what the server holds: once loaded, and again after each save.
  useEffect(() => {
    if (settings) setForm(formOf(settings));
  }, [settings]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!form) return;
    const parsed = parseReferralBonusInput(form);
    if (!parsed.ok) {
      setFieldError({ field: parsed.field, message: parsed.message });
      return;
    }
    setFieldError(null);
    setPending(termsOf(parsed.cents));
  };

  const confirm = () => {
    if (!form) return;
    dispatch(referralBonusSettingsSaveRequested({ ...form }));
    setPending(null);
  };

  return (
    <section
      className="card referral-bonus"
      aria-labelledby="referral-bonus-heading"
      aria-busy={isLoading || undefined}
    >
      <h3 id="referral-bonus-heading">Referral bonus</h3>
      <p className="referral-bonus__lead">
        Credited once per invited user, to each side that has a bonus, when the invited user’s first deposit is paid and
        is at least the minimum. A blocked or deleted account gets nothing.
      </p>
      {loadError ? (
        <p className="referral-management__error" role="alert">
          {loadError}
        </p>
      ) : !form ? (
        <p role="status">
          <Spinner size={16} /> Loading referral bonus…
        </p>
      ) : (
        <form className="referral-bonus__form" onSubmit={submit} noValidate>
          <div className="referral-bonus__fields">
            {FIELDS.map(({ field, hint }) => {
              const id = `referral-bonus-${field}`;
              const error = fieldError?.field === field ? fieldError.message : null;
              return (
                <div className="field" key={field}>
                  <label className="field__label" htmlFor={id}>
                    {REFERRAL_BONUS_FIELD_LABELS[field]} ($)
                  </label>
                  <input
                    id={id}
                    className="input"
                    inputMode="decimal"
                    value={form[field]}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
                    onChange={(e) => setForm({ ...form, [field]: e.target.value })}
                  />
                  <span id={`${id}-hint`} className="referral-bonus__hint">
                    {hint}
                  </span>
                  {error ? (
                    <span id={`${id}-error`} className="referral-management__error">
                      {error}
                    </span>
                  ) : null}
                </div>
              );
            })}
          </div>
          {saveError ? (
            <p className="referral-management__error" role="alert">
              {saveError}
            </p>
          ) : null}
          <div className="referral-bonus__footer">
            <p className="referral-bonus__state" data-testid="referral-bonus-state">
              {settings ? programText(termsOf(centsOf(settings))) : ''}
            </p>
            <button type="submit" className="button button--primary" disabled={isSaving}>
              {isSaving ? 'Saving…' : 'Save referral bonus'}
            </button>
          </div>
          {settings?.updatedAt ? (
            <p className="referral-bonus__changed">
              Last changed {formatDateTime(settings.updatedAt)}
              {settings.updatedBy
                ? ` by ${settings.updatedBy.name}${settings.updatedBy.email ? ` (${settings.updatedBy.email})` : ''}`
                : ''}
            </p>
          ) : null}
        </form>
      )}
      <ConfirmDialog
        isOpen={pending !== null}
        title="Save referral bonus"
        tone="primary"
        confirmLabel="Save"
        text={pending ? `${programText(pending)} This applies to first deposits paid from now on.` : ''}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
    </section>
  );
}

function centsOf(s: AdminReferralBonusReply) {
  return {
    referrerBonusCents: Math.round(s.referrerBonus * 100),
    referredBonusCents: Math.round(s.referredBonus * 100),
    minimumDepositCents: Math.round(s.minimumDeposit * 100),
  };
}
