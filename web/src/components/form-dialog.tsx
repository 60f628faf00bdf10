import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { failureText } from './data-table-requests';
import type { SelectOption } from './data-table-validation';
import { Modal } from './modal';
import './form-dialog.css';

/** Spec doc 2 §5 "Generic form": the text when a server error names no field. */
export const SUBMISSION_FAILED = 'Submission failed';

export interface FormField {
  name: string;
  label: string;
  type?: 'text' | 'tel' | 'email' | 'number' | 'select';
  required?: boolean;
  readOnly?: boolean;
  options?: readonly SelectOption[];
  autoComplete?: string;
  maxLength?: number;
  /** Bounds and step of a number field's spinner. */
  min?: number;
  max?: number;
  step?: number;
  /** Spans both columns of the form grid. */
  isWide?: boolean;
  /** Other words the server may use for this field in its messages. */
  aliases?: readonly string[];
}

export type FormValues = Record<string, string>;

interface FormDialogProps {
  isOpen: boolean;
  title: string;
  fields: readonly FormField[];
  initialValues: FormValues;
  /** Called with trimmed values once every required field is filled; reject to report a failure. */
  onSubmit: (values: FormValues) => Promise<unknown> | undefined;
  onClose: () => void;
  submitLabel?: string;
  submittingLabel?: string;
  description?: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The field a server message is about: the field whose label (or alias) the
 * message names as a whole word, the longest name winning so "Street 2 …"
 * goes to Street 2 rather than Street. Null when it names none.
 */
export function fieldForMessage(message: string, fields: readonly FormField[]): string | null {
  let best: { name: string; length: number } | null = null;
  for (const field of fields) {
    for (const word of [field.label, ...(field.aliases ?? [])]) {
      const pattern = new RegExp(`(^|[^a-z0-9])${escapeRegExp(word)}([^a-z0-9]|$)`, 'i');
      if (pattern.test(message) && (!best || word.length > best.length))
        best = { name: field.name, length: word.length };
    }
  }
  return best?.name ?? null;
}

/**
 * A dialog holding a form: labelled fields, '{label} is required' on empty
 * required fields, and server errors shown on the field they name (otherwise
 * 'Submission failed' with the server's words under it).
 */
export function FormDialog({
  isOpen,
  title,
  fields,
  initialValues,
  onSubmit,
  onClose,
  submitLabel = 'Save',
  submittingLabel = 'Saving…',
  description,
}: FormDialogProps) {
  const formId = useId();
  const form = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<FormValues>(initialValues);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [isSubmitting, setIsSubmitting] = useState(false);
  const focusField = useRef<string | null>(null);
  const initialRef = useRef(initialValues);
  initialRef.current = initialValues;

  // Every opening starts from the initial values; the Modal focuses its close button first, this wins.
  useEffect(() => {
    if (!isOpen) return;
    setValues(initialRef.current);
    setErrors({});
    setFormError(null);
    setIsSubmitting(false);
    form.current?.querySelector<HTMLElement>('input:not([readonly]), select')?.focus();
  }, [isOpen]);

  useEffect(() => {
    const name = focusField.current;
    if (!name) return;
    focusField.current = null;
    form.current?.querySelector<HTMLElement>(`[name="${CSS.escape(name)}"]`)?.focus();
  });

  const change = (name: string, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    setErrors((current) => {
      if (!current[name]) return current;
      const { [name]: _fixed, ...rest } = current;
      return rest;
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isSubmitting) return;
    const trimmed: FormValues = {};
    const problems: Record<string, string> = {};
    for (const field of fields) {
      const value = (values[field.name] ?? '').trim();
      trimmed[field.name] = value;
      if (field.required && value === '') problems[field.name] = `${field.label} is required`;
    }
    setErrors(problems);
    setFormError(null);
    const firstInvalid = fields.find((f) => problems[f.name]);
    if (firstInvalid) {
      focusField.current = firstInvalid.name;
      return;
    }
    setIsSubmitting(true);
    try {
      await onSubmit(trimmed);
      setIsSubmitting(false);
      onClose();
    } catch (error) {
      setIsSubmitting(false);
      const message = failureText(error) ?? '';
      const field = message ? fieldForMessage(message, fields) : null;
      if (field) {
        setErrors({ [field]: message });
        focusField.current = field;
      } else {
        setFormError(message || SUBMISSION_FAILED);
      }
    }
  };

  const close = () => {
    if (!isSubmitting) onClose();
  };

  return (
    <Modal
      isOpen={isOpen}
      title={title}
      onClose={close}
      width={640}
      closeOnBackdrop={false}
      footer={
        <>
          <button type="button" className="button button--ghost" onClick={close} disabled={isSubmitting}>
            Cancel
          </button>
          <button
            type="submit"
            form={formId}
            className="button button--primary"
            disabled={isSubmitting}
            aria-busy={isSubmitting}
          >
            {isSubmitting ? submittingLabel : submitLabel}
          </button>
        </>
      }
    >
      <form id={formId} ref={form} className="form-dialog" noValidate onSubmit={submit}>
        {description ? <p className="form-dialog__description">{description}</p> : null}
        {formError ? (
          <div className="alert alert--error form-dialog__alert" role="alert">
            <strong>{SUBMISSION_FAILED}</strong>
            {formError !== SUBMISSION_FAILED ? <span className="form-dialog__alert-detail">{formError}</span> : null}
          </div>
        ) : null}
        <div className="form-dialog__grid">
          {fields.map((field) => {
            const id = `${formId}-${field.name}`;
            const error = errors[field.name];
            const errorId = `${id}-error`;
            const common = {
              id,
              name: field.name,
              className: 'input',
              value: values[field.name] ?? '',
              disabled: isSubmitting,
              'aria-invalid': error ? true : undefined,
              'aria-describedby': error ? errorId : undefined,
              'aria-required': field.required || undefined,
            };
            return (
              <div
                key={field.name}
                className={`field form-dialog__field${field.isWide ? ' form-dialog__field--wide' : ''}`}
              >
                {/* The required star comes from CSS so it stays out of the field's accessible name. */}
                <label className={`field__label${field.required ? ' form-dialog__label--required' : ''}`} htmlFor={id}>
                  {field.label}
                </label>
                {field.type === 'select' && !field.readOnly ? (
                  <select {...common} onChange={(e) => change(field.name, e.target.value)}>
                    <option value="">Select…</option>
                    {(field.options ?? []).map((option) => (
                      <option key={option.value} value={option.value}>
                        {option.label}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input
                    {...common}
                    type={field.type === 'select' ? 'text' : (field.type ?? 'text')}
                    readOnly={field.readOnly}
                    autoComplete={field.autoComplete}
                    maxLength={field.maxLength}
                    min={field.min}
                    max={field.max}
                    step={field.step}
                    onChange={(e) => change(field.name, e.target.value)}
                  />
                )}
                {error ? (
                  <span id={errorId} className="form-dialog__error">
                    {error}
                  </span>
                ) : null}
              </div>
            );
          })}
        </div>
      </form>
    </Modal>
  );
}
