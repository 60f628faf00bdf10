import { PRINT_FORMAT_NAMES, PRINT_FORMATS, type PrintFormat } from '@flatship/proto';
import { type FormEvent, useEffect, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Spinner } from '../../components/spinner';
import { selectUser } from '../auth/auth-selectors';
import { selectPrintSettings } from './print-settings-selectors';
import { printFormatSubmitted, printSettingsRequested } from './print-settings-slice';
import './print-settings.css';

/** The print setting on the Account page: the format of every label download, single labels and batch files. */
export function PrintSettingsCard() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const { labelFormat, status, message, error } = useAppSelector(selectPrintSettings);
  const [choice, setChoice] = useState<PrintFormat | null>(labelFormat);
  const userId = user?._id;

  useEffect(() => {
    if (userId) dispatch(printSettingsRequested({ userId }));
  }, [dispatch, userId]);

  // The saved setting, once read (or saved), is what the form shows.
  useEffect(() => {
    if (labelFormat) setChoice(labelFormat);
  }, [labelFormat]);

  const isLoading = status === 'loading' && labelFormat === null;
  const isSaving = status === 'saving';

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (userId && choice) dispatch(printFormatSubmitted({ userId, labelFormat: choice }));
  };

  return (
    <section className="card account print-settings" aria-labelledby="print-settings-heading">
      <h2 id="print-settings-heading" className="account__heading">
        Printing
      </h2>
      <p className="account__intro">
        Label downloads come in this format: single labels from Orders and after buying, and the labels file of a batch.
      </p>
      {error ? (
        <div className="alert alert--error" role="alert">
          {error}
        </div>
      ) : null}
      {status === 'saved' && message ? (
        <div className="alert alert--success" role="status">
          {message}
        </div>
      ) : null}
      {isLoading ? (
        <p className="print-settings__loading" aria-busy="true">
          <Spinner size={18} /> Loading your print setting…
        </p>
      ) : (
        <form onSubmit={onSubmit}>
          <fieldset className="print-settings__options" disabled={isSaving}>
            <legend className="account__legend">Label format</legend>
            {PRINT_FORMATS.map((format) => (
              <label key={format} className="print-settings__option" htmlFor={`print-format-${format}`}>
                <input
                  id={`print-format-${format}`}
                  type="radio"
                  name="labelFormat"
                  value={format}
                  checked={choice === format}
                  onChange={() => setChoice(format)}
                  aria-describedby={`print-format-${format}-hint`}
                />
                <span className="print-settings__text">
                  <span className="print-settings__title">{PRINT_FORMAT_NAMES[format].title}</span>
                  <span id={`print-format-${format}-hint`} className="field__hint">
                    {PRINT_FORMAT_NAMES[format].hint}
                  </span>
                </span>
              </label>
            ))}
          </fieldset>
          <div className="account__actions">
            <button
              type="submit"
              className="button button--primary"
              disabled={isSaving || !choice || choice === labelFormat}
              aria-busy={isSaving}
            >
              {isSaving ? 'Saving...' : 'Save print setting'}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
