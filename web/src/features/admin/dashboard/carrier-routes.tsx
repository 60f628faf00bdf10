import { useEffect, useState } from 'react';
import { errorMessage } from '../../../app/server-message';
import { adminDashboardApi, type CarrierRoutesReply } from './admin-dashboard-api';

export const CARRIER_ROUTES_FAILED = 'Which carrier sells each service could not be read.';

/** "USPS, then USPS via EasyPost": the carrier that sells, then the ones standing by in the order they are asked. */
export const routeText = (carriers: CarrierRoutesReply['services'][number]['carriers']) =>
  carriers.map((c) => c.name).join(', then ') || 'no enabled carrier';

/**
 * Which carrier sells each service, under the carrier balance: an operator who enabled a live carrier sees at a glance
 * that labels are bought from it, and which carrier stands by when it cannot sell. Read once when the card opens.
 */
export function CarrierRoutes() {
  const [reply, setReply] = useState<CarrierRoutesReply | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let open = true;
    adminDashboardApi.carrierRoutes().then(
      (r) => open && setReply(r),
      (e: unknown) => open && setError(errorMessage(e, CARRIER_ROUTES_FAILED)),
    );
    return () => {
      open = false;
    };
  }, []);
  if (error) return <p className="admin-dashboard__note">{error}</p>;
  if (!reply || reply.services.length === 0) return null;
  return (
    <div className="admin-dashboard__routes">
      <h3 className="admin-dashboard__label" id="admin-carrier-routes-heading">
        Sold by
      </h3>
      <ul className="admin-dashboard__checks" aria-labelledby="admin-carrier-routes-heading">
        {reply.services.map((s) => (
          <li key={s.uid} className="admin-dashboard__route">
            <span>{s.name}</span>
            <span className="admin-dashboard__note">{routeText(s.carriers)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
