import '../shell/user-area';
import { type Address, addressToCheck, type CheckedAddress, labelDownloadPath } from '@flatship/proto';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { formatMoney } from '../../app/format';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Modal } from '../../components/modal';
import { toastShown } from '../../components/toast-slice';
import { AddressCheckNotice, useAddressCheck } from '../address-check/address-check';
import { selectUser } from '../auth/auth-selectors';
import { fileRequested } from '../downloads/downloads-actions';
import { AddressCard, TextField } from './address-card';
import {
  type AddressForm,
  addressFormFrom,
  buildOrderPayload,
  clampWeight,
  DEFAULT_MAX_WEIGHT,
  fieldId,
  formProblem,
  groupByCategory,
  initialLabelForm,
  type LabelForm,
  missingFields,
  type PackageForm,
  priceWeight,
} from './order-label-form';
import {
  selectAddressesLoading,
  selectIsPricing,
  selectPdfName,
  selectPrice,
  selectSavedAddresses,
  selectServices,
  selectServicesLoading,
  selectSubmitStatus,
} from './order-label-selectors';
import { labelOrderSubmitted, orderLabelOpened, priceRequested, successDialogClosed } from './order-label-slice';
import { sideStates } from './us-states';
import './order-label.css';
import { usePrintFormat } from '../print-settings/use-print-format';

export function OrderLabelPage() {
  const dispatch = useAppDispatch();
  const printFormat = usePrintFormat();
  const user = useAppSelector(selectUser);
  const services = useAppSelector(selectServices);
  const isLoadingServices = useAppSelector(selectServicesLoading);
  const savedAddresses = useAppSelector(selectSavedAddresses);
  const isLoadingAddresses = useAppSelector(selectAddressesLoading);
  const price = useAppSelector(selectPrice);
  const isPricing = useAppSelector(selectIsPricing);
  const submitStatus = useAppSelector(selectSubmitStatus);
  const pdfName = useAppSelector(selectPdfName);
  const [form, setForm] = useState<LabelForm>(initialLabelForm);
  const [invalid, setInvalid] = useState<ReadonlySet<string>>(new Set());
  // The dialog belongs to a purchase made on this visit, not to one left open on an earlier one.
  const [hasSubmitted, setHasSubmitted] = useState(false);
  const userId = user?._id;
  const isSubmitting = submitStatus === 'submitting';

  const service = services.find((s) => s.uid === form.serviceUid) ?? null;
  const maxWeight = service?.maxWeight ?? DEFAULT_MAX_WEIGHT;
  const groups = useMemo(() => groupByCategory(services), [services]);

  useEffect(() => {
    if (userId) dispatch(orderLabelOpened(userId));
  }, [userId, dispatch]);

  const serviceName = service?.name;
  const weightForPrice = priceWeight(form.pkg.weight);
  useEffect(() => {
    if (serviceName) dispatch(priceRequested({ serviceName, weight: weightForPrice }));
  }, [serviceName, weightForPrice, dispatch]);

  // Once the user fixes a field it is no longer marked.
  useEffect(() => {
    setInvalid((current) => {
      if (current.size === 0) return current;
      const stillMissing = new Set(missingFields(form).map((m) => m.id));
      const next = new Set([...current].filter((id) => stillMissing.has(id)));
      return next.size === current.size ? current : next;
    });
  }, [form]);

  // Both addresses are checked with the carrier as soon as they are complete, before anything is paid; a From address
  // picked from the address book as saved (and checked when it was saved) is not asked about again.
  const toCheck = useAddressCheck('to', checkable(form.to), { serviceUid: form.serviceUid || undefined });
  const isSavedChecked = savedAddresses.some((a) => a.verified === true && sameAddress(a, form.from));
  const fromCheck = useAddressCheck('from', checkable(form.from), {
    skip: isSavedChecked,
    serviceUid: form.serviceUid || undefined,
  });
  const [acknowledgedTo, setAcknowledgedTo] = useState('');
  const toKey = JSON.stringify(checkable(form.to));
  const isToUndeliverable = toCheck.state.status === 'done' && toCheck.state.check.verdict === 'undeliverable';
  const isToAcknowledged = isToUndeliverable && acknowledgedTo === toKey;
  const useSuggested = (side: 'from' | 'to') => (suggested: CheckedAddress) => {
    const next = {
      ...form[side],
      street: suggested.street1,
      street2: suggested.street2,
      city: suggested.city,
      state: suggested.state,
      zip: suggested.zip,
    };
    (side === 'to' ? toCheck : fromCheck).rememberSuggested(checkable(next), suggested);
    setForm((f) => ({ ...f, [side]: next }));
  };

  const setPackage = <K extends keyof PackageForm>(key: K, value: PackageForm[K]) =>
    setForm((f) => ({ ...f, pkg: { ...f.pkg, [key]: value } }));
  const setAddress = (side: 'from' | 'to') => (next: AddressForm) => setForm((f) => ({ ...f, [side]: next }));
  const pickAddress = (side: 'from' | 'to') => (saved: Address) =>
    setForm((f) => ({ ...f, [side]: addressFormFrom(saved, f[side], sideStates(side).isState) }));

  const chooseService = (uid: string) => {
    const next = services.find((s) => s.uid === uid);
    setForm((f) => ({
      ...f,
      serviceUid: uid,
      // A lighter maximum than the previous service's cuts the weight already typed.
      pkg: { ...f.pkg, weight: clampWeight(f.pkg.weight, next?.maxWeight ?? DEFAULT_MAX_WEIGHT) },
    }));
  };

  const focusField = (id: string) => document.getElementById(id)?.focus();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (isSubmitting || !userId) return;
    if (!service) {
      dispatch(toastShown({ kind: 'error', message: 'Please select a service' }));
      focusField('order-service');
      return;
    }
    const problem = formProblem(form);
    if (problem) {
      const missing = missingFields(form).map((m) => m.id);
      setInvalid(new Set(missing.length > 0 ? missing : [problem.id]));
      dispatch(toastShown({ kind: 'error', message: problem.message }));
      focusField(problem.id);
      return;
    }
    if (isToUndeliverable && !isToAcknowledged) {
      dispatch(
        toastShown({
          kind: 'error',
          message: 'USPS cannot deliver to the To address. Tick "Ship to this address anyway" to buy this label.',
        }),
      );
      focusField('to-address-check-ack');
      return;
    }
    setHasSubmitted(true);
    const payload = buildOrderPayload(form, service, userId);
    dispatch(labelOrderSubmitted(isToAcknowledged ? { ...payload, address_acknowledged: true } : payload));
  };

  const pkgId = fieldId.pkg;
  const pkgInvalid = (key: keyof PackageForm) => invalid.has(pkgId(key));

  return (
    <div className="order-label">
      <form className="order-label__form" onSubmit={onSubmit} noValidate aria-label="Order a shipping label">
        <section className="card order-label__service" aria-labelledby="order-service-heading">
          <h2 id="order-service-heading" className="visually-hidden">
            Service
          </h2>
          <div className="field order-label__service-field">
            <label className="field__label field__label--required" htmlFor="order-service">
              Service
            </label>
            <select
              id="order-service"
              className="input order-label__select"
              required
              value={form.serviceUid}
              disabled={isLoadingServices}
              aria-describedby="order-service-hint"
              onChange={(e) => chooseService(e.target.value)}
            >
              <option value="" disabled>
                {isLoadingServices
                  ? 'Loading services…'
                  : services.length
                    ? 'Select a service'
                    : 'No services available'}
              </option>
              {groups.map((group) => (
                <optgroup key={group.category} label={group.category}>
                  {group.services.map((s) => (
                    <option key={s.uid} value={s.uid}>
                      {s.name}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
            <span id="order-service-hint" className="field__hint">
              {service ? `Up to ${service.maxWeight} lbs` : 'Choose the USPS service for this label.'}
            </span>
          </div>
        </section>

        <div className="order-label__cards">
          <section className="card order-label__card" aria-labelledby="package-heading">
            <h2 id="package-heading" className="order-label__card-title">
              Package Information
            </h2>
            <div className="order-label__package-body">
              <div>
                <fieldset className="order-label__dimensions">
                  <legend className="order-label__legend">Dimensions (inches)</legend>
                  <div className="order-label__row order-label__row--3">
                    <TextField
                      id={pkgId('length')}
                      label="Length"
                      type="number"
                      required
                      isInvalid={pkgInvalid('length')}
                      value={form.pkg.length}
                      onChange={(v) => setPackage('length', v)}
                    />
                    <TextField
                      id={pkgId('width')}
                      label="Width"
                      type="number"
                      required
                      isInvalid={pkgInvalid('width')}
                      value={form.pkg.width}
                      onChange={(v) => setPackage('width', v)}
                    />
                    <TextField
                      id={pkgId('height')}
                      label="Height"
                      type="number"
                      required
                      isInvalid={pkgInvalid('height')}
                      value={form.pkg.height}
                      onChange={(v) => setPackage('height', v)}
                    />
                  </div>
                </fieldset>
                <div className="field">
                  <label className="field__label field__label--required" htmlFor={pkgId('weight')}>
                    Weight (lbs)
                  </label>
                  <input
                    id={pkgId('weight')}
                    className="input"
                    type="number"
                    min={0}
                    max={maxWeight}
                    step="any"
                    required
                    aria-invalid={pkgInvalid('weight') || undefined}
                    aria-describedby="package-weight-hint"
                    value={form.pkg.weight}
                    onChange={(e) => setPackage('weight', clampWeight(e.target.value, maxWeight))}
                  />
                  <span id="package-weight-hint" className="field__hint">
                    Maximum {maxWeight} lbs
                  </span>
                </div>
              </div>
              <div>
                <TextField
                  id={pkgId('description')}
                  label="Description"
                  value={form.pkg.description}
                  onChange={(v) => setPackage('description', v)}
                />
                <div className="order-label__row">
                  <div className="field">
                    <label className="field__label" htmlFor={pkgId('quantity')}>
                      Quantity
                    </label>
                    <input
                      id={pkgId('quantity')}
                      className="input"
                      type="number"
                      min={1}
                      step={1}
                      value={form.pkg.quantity}
                      onChange={(e) => setPackage('quantity', e.target.value)}
                    />
                  </div>
                  <TextField
                    id={pkgId('sku')}
                    label="SKU Number"
                    value={form.pkg.sku}
                    onChange={(v) => setPackage('sku', v)}
                  />
                </div>
                <div className="order-label__checks">
                  <label className="order-label__check">
                    <input
                      type="checkbox"
                      checked={form.pkg.signature}
                      onChange={(e) => setPackage('signature', e.target.checked)}
                    />
                    Require a signature on delivery
                  </label>
                  <label className="order-label__check">
                    <input
                      type="checkbox"
                      checked={form.pkg.saturday}
                      onChange={(e) => setPackage('saturday', e.target.checked)}
                    />
                    Saturday Delivery
                  </label>
                </div>
              </div>
            </div>
          </section>

          <AddressCard
            side="from"
            title="From Address"
            value={form.from}
            onChange={setAddress('from')}
            onPick={pickAddress('from')}
            savedAddresses={savedAddresses}
            isLoadingAddresses={isLoadingAddresses}
            invalid={invalid}
            footer={
              <AddressCheckNotice
                id="from-address-check"
                state={fromCheck.state}
                onUseSuggested={useSuggested('from')}
                onKeepMine={fromCheck.keepMine}
              />
            }
          />
          <AddressCard
            side="to"
            title="To Address"
            value={form.to}
            onChange={setAddress('to')}
            onPick={pickAddress('to')}
            savedAddresses={savedAddresses}
            isLoadingAddresses={isLoadingAddresses}
            invalid={invalid}
            footer={
              <AddressCheckNotice
                id="to-address-check"
                state={toCheck.state}
                onUseSuggested={useSuggested('to')}
                onKeepMine={toCheck.keepMine}
                acknowledge={{
                  id: 'to-address-check-ack',
                  label: 'Ship to this address anyway',
                  isChecked: isToAcknowledged,
                  onChange: (checked) => setAcknowledgedTo(checked ? toKey : ''),
                }}
              />
            }
          />
        </div>

        <div className="card order-label__summary">
          <p className="order-label__price" aria-live="polite" aria-busy={isPricing}>
            <span className="order-label__price-label">Price:</span>{' '}
            <strong className="order-label__price-value" data-testid="label-price">
              {formatMoney(price)}
            </strong>
          </p>
          <button
            type="submit"
            className="button button--accent order-label__submit"
            disabled={isSubmitting}
            aria-busy={isSubmitting}
          >
            {isSubmitting ? 'Ordering...' : 'Order Label'}
          </button>
        </div>
      </form>

      <Modal
        isOpen={hasSubmitted && submitStatus === 'succeeded'}
        title="Label Created Successfully!"
        onClose={() => dispatch(successDialogClosed())}
        footer={
          <>
            {pdfName ? (
              <button
                type="button"
                className="button button--primary"
                onClick={() =>
                  dispatch(
                    fileRequested({
                      path: labelDownloadPath(pdfName),
                      open: printFormat === 'zpl-203' ? 'save' : 'tab',
                    }),
                  )
                }
              >
                {printFormat === 'zpl-203' ? 'Download Label ZPL' : 'Download Label PDF'}
              </button>
            ) : null}
            <button type="button" className="button button--ghost" onClick={() => dispatch(successDialogClosed())}>
              Close
            </button>
          </>
        }
      >
        <p className="order-label__success">Your shipping label has been generated and is ready for download.</p>
      </Modal>
    </div>
  );
}

/** The form's address as a check takes it. */
const checkable = (a: AddressForm) => addressToCheck(a);

/** Whether the form still holds a saved address as it was picked. */
const sameAddress = (saved: Address, a: AddressForm) =>
  [
    [saved.street, a.street],
    [saved.street2, a.street2],
    [saved.city, a.city],
    [saved.state, a.state],
    [String(saved.zip), a.zip],
  ].every(([x, y]) => (x ?? '').trim().toUpperCase() === (y ?? '').trim().toUpperCase());
