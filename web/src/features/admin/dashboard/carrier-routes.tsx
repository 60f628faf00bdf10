import { useEffect, useState } from 'react';
import { errorMessage } from '../../../app/server-message';
import { Spinner } from '../../../components/spinner';
import { adminDashboardApi, type CarrierRoutesReply } from './admin-dashboard-api';

export const CARRIER_ROUTES_FAILED = 'Which carrier sells each service could not be read.';
export const CARRIER_ROUTES_SAVE_FAILED = 'The carriers could not be switched. Try again in a moment.';
export const CARRIER_ROUTES_SAVED = 'Saved. New purchases follow it within a few seconds.';
/** The fallback choice that names no carrier. */
export const NO_FALLBACK = 'No one: the label fails';

type Service = CarrierRoutesReply['services'][number];

/** "USPS, then USPS via EasyPost": the carrier that sells, then the ones standing by in the order they are asked. */
export const routeText = (carriers: Service['carriers']) =>
  carriers.map((c) => c.name).join(', then ') || 'no enabled carrier';

/** Each switchable service's choice: the carrier that sells, and the one asked when it cannot ('' for none). */
type Choices = Record<string, { first: string; standby: string }>;

const choicesOf = (services: readonly Service[]): Choices =>
  Object.fromEntries(
    services
      .filter((s) => s.sellers.length > 1)
      .map((s) => [s.uid, { first: s.carriers[0]?.id ?? '', standby: s.carriers[1]?.id ?? '' }]),
  );

const routeOf = (c: { first: string; standby: string }) => (c.standby ? [c.first, c.standby] : [c.first]);

type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'failed'; message: string };

/**
 * Which carrier sells each service, under the carrier balance: an operator who enabled a live carrier sees at a glance
 * that labels are bought from it, and which carrier stands by when it cannot sell. A service two enabled carriers
 * sell can be switched here (USPS direct, with EasyPost standing by when USPS is down); orders and every label worker
 * follow the saved choice. Read once when the card opens.
 */
export function CarrierRoutes() {
  const [reply, setReply] = useState<CarrierRoutesReply | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [choices, setChoices] = useState<Choices>({});
  const [save, setSave] = useState<SaveState>({ kind: 'idle' });
  useEffect(() => {
    let open = true;
    adminDashboardApi.carrierRoutes().then(
      (r) => {
        if (!open) return;
        setReply(r);
        setChoices(choicesOf(r.services));
      },
      (e: unknown) => open && setError(errorMessage(e, CARRIER_ROUTES_FAILED)),
    );
    return () => {
      open = false;
    };
  }, []);
  if (error) return <p className="admin-dashboard__note">{error}</p>;
  if (!reply || reply.services.length === 0) return null;

  const saved = choicesOf(reply.services);
  const changed = Object.keys(choices).filter(
    (uid) => choices[uid]?.first !== saved[uid]?.first || choices[uid]?.standby !== saved[uid]?.standby,
  );
  const choose = (uid: string, next: Partial<{ first: string; standby: string }>) => {
    setSave({ kind: 'idle' });
    setChoices((all) => {
      const c = { ...(all[uid] as { first: string; standby: string }), ...next };
      // The carrier now selling cannot also stand by for itself.
      if (c.standby === c.first) c.standby = '';
      return { ...all, [uid]: c };
    });
  };
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (changed.length === 0) return;
    setSave({ kind: 'saving' });
    try {
      const next = await adminDashboardApi.switchCarrierRoutes({
        services: changed.map((uid) => ({
          uid,
          carriers: routeOf(choices[uid] as { first: string; standby: string }),
        })),
      });
      setReply(next);
      setChoices(choicesOf(next.services));
      setSave({ kind: 'saved' });
    } catch (e) {
      setSave({ kind: 'failed', message: errorMessage(e, CARRIER_ROUTES_SAVE_FAILED) });
    }
  };
  const switchable = Object.keys(saved).length > 0;
  const saving = save.kind === 'saving';

  return (
    <form className="admin-dashboard__routes" onSubmit={submit} aria-labelledby="admin-carrier-routes-heading">
      <h3 className="admin-dashboard__label" id="admin-carrier-routes-heading">
        Sold by
      </h3>
      <ul className="admin-dashboard__checks" aria-labelledby="admin-carrier-routes-heading">
        {reply.services.map((s) => {
          const c = choices[s.uid];
          return (
            <li key={s.uid} className="admin-dashboard__route">
              <span>{s.name}</span>
              {c ? (
                <span className="admin-dashboard__route-choice">
                  <select
                    aria-label={`${s.name}: sold by`}
                    value={c.first}
                    disabled={saving}
                    onChange={(e) => choose(s.uid, { first: e.target.value })}
                  >
                    {s.sellers.map((seller) => (
                      <option key={seller.id} value={seller.id}>
                        {seller.name}
                      </option>
                    ))}
                  </select>
                  <span className="admin-dashboard__note">then</span>
                  <select
                    aria-label={`${s.name}: when it cannot sell`}
                    value={c.standby}
                    disabled={saving}
                    onChange={(e) => choose(s.uid, { standby: e.target.value })}
                  >
                    <option value="">{NO_FALLBACK}</option>
                    {s.sellers
                      .filter((seller) => seller.id !== c.first)
                      .map((seller) => (
                        <option key={seller.id} value={seller.id}>
                          {seller.name}
                        </option>
                      ))}
                  </select>
                </span>
              ) : (
                <span className="admin-dashboard__note">{routeText(s.carriers)}</span>
              )}
            </li>
          );
        })}
      </ul>
      {switchable ? (
        <div className="admin-dashboard__check">
          <button type="submit" className="button button--ghost" disabled={saving || changed.length === 0}>
            {saving ? (
              <>
                <Spinner size={14} /> Switching carriers…
              </>
            ) : (
              'Save carriers'
            )}
          </button>
          <p className="admin-dashboard__note" aria-live="polite">
            {save.kind === 'saved' ? CARRIER_ROUTES_SAVED : ''}
          </p>
          {save.kind === 'failed' ? (
            <p className="admin-dashboard__error" role="alert">
              {save.message}
            </p>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}
