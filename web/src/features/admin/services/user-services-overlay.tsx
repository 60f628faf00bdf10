import type { AdminUserRow, ConfiguredService } from '@flatship/proto';
import { useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { Spinner } from '../../../components/spinner';
import { PriceRangesEditor } from './price-ranges-editor';
import {
  selectUserServices,
  servicePricesSubmitted,
  serviceToggleSubmitted,
  userServicesClosed,
  userServicesOpened,
} from './user-services-slice';
import './user-services.css';

const FOCUSABLE =
  'button:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

function ServiceCard({ service, userId, isBusy }: { service: ConfiguredService; userId: string; isBusy: boolean }) {
  const dispatch = useAppDispatch();
  const headingId = useId();
  return (
    <section className="card user-services__card" aria-labelledby={headingId}>
      <header className="user-services__card-header">
        <div>
          <h3 id={headingId} className="user-services__name">
            {service.name}
          </h3>
          <p className="user-services__meta">
            {service.category} · max {service.maxWeight} lb
            {service.status === 'inactive' ? ' · not offered by the carrier now' : ''}
          </p>
        </div>
        <label className="user-services__switch">
          <input
            type="checkbox"
            role="switch"
            checked={service.enabled}
            aria-checked={service.enabled}
            disabled={isBusy}
            aria-label={`${service.name} enabled`}
            onChange={(e) =>
              dispatch(serviceToggleSubmitted({ userId, serviceId: service._id, enabled: e.target.checked }))
            }
          />
          <span>{service.enabled ? 'Enabled' : 'Disabled'}</span>
        </label>
      </header>
      <PriceRangesEditor
        prices={service.prices}
        maxWeight={service.maxWeight}
        serviceName={service.name}
        isSaving={isBusy}
        onSave={(prices) => dispatch(servicePricesSubmitted({ userId, serviceId: service._id, prices }))}
      />
    </section>
  );
}

/**
 * Full-screen configuration of one user's services (spec doc 3 §2): enable or
 * disable each one and edit its price list. Escape or Close leaves.
 */
export function UserServicesOverlay({ user, onClose }: { user: AdminUserRow; onClose: () => void }) {
  const dispatch = useAppDispatch();
  const { status, services, busyIds } = useAppSelector(selectUserServices);
  const titleId = useId();
  const closeButton = useRef<HTMLButtonElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    dispatch(userServicesOpened(user._id));
    return () => {
      dispatch(userServicesClosed());
    };
  }, [user._id, dispatch]);

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeButton.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        onCloseRef.current();
        return;
      }
      // Tab stays inside the overlay: the page behind it is covered.
      if (event.key !== 'Tab' || !root.current) return;
      const items = [...root.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
      const head = items[0];
      const tail = items.at(-1);
      if (!head || !tail) return;
      if (event.shiftKey && document.activeElement === head) {
        event.preventDefault();
        tail.focus();
      } else if (!event.shiftKey && document.activeElement === tail) {
        event.preventDefault();
        head.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.body.style.overflow = overflow;
      previous?.focus();
    };
  }, []);

  return createPortal(
    <div ref={root} className="user-services" role="dialog" aria-modal="true" aria-labelledby={titleId}>
      <header className="user-services__header">
        <div>
          <h2 id={titleId} className="user-services__title">
            Services for {user.name}
          </h2>
          <p className="user-services__email">{user.email}</p>
        </div>
        <button ref={closeButton} type="button" className="button button--ghost" onClick={onClose}>
          Close
        </button>
      </header>
      <div className="user-services__body">
        {status === 'loading' ? (
          <div className="user-services__state" role="status">
            <Spinner /> Loading services…
          </div>
        ) : null}
        {status === 'failed' ? (
          <div className="user-services__state">
            <p className="alert alert--error">Failed to load services</p>
            <button
              type="button"
              className="button button--primary"
              onClick={() => dispatch(userServicesOpened(user._id))}
            >
              Try again
            </button>
          </div>
        ) : null}
        {status === 'succeeded' && services.length === 0 ? (
          <p className="user-services__state">No services are available for this user.</p>
        ) : null}
        {status === 'succeeded'
          ? services.map((service) => (
              <ServiceCard
                key={service._id}
                service={service}
                userId={user._id}
                isBusy={busyIds.includes(service._id)}
              />
            ))
          : null}
      </div>
    </div>,
    document.body,
  );
}
