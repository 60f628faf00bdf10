import '../admin-area';
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { Loader } from '../../../components/spinner';
import { DefaultServiceCard } from './default-service-card';
import {
  defaultServicesRequested,
  defaultServicesSyncRequested,
  selectDefaultServices,
} from './default-services-slice';
import { useDragScroll } from './use-drag-scroll';
import './default-services.css';

function SyncIcon() {
  return (
    <svg
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <path d="M21 12a9 9 0 0 1-15.5 6.2M3 12A9 9 0 0 1 18.5 5.8" strokeLinecap="round" />
      <path d="M18 2v4h-4M6 22v-4h4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** /admin/default-services (spec doc 3 §2). */
export function DefaultServicesPage() {
  const dispatch = useAppDispatch();
  const { isLoading, loadError, services, rawServices, isSyncing, savingIds } = useAppSelector(selectDefaultServices);
  const { handlers } = useDragScroll<HTMLDivElement>();

  useEffect(() => {
    dispatch(defaultServicesRequested());
  }, [dispatch]);

  return (
    <section className="default-services">
      <header className="default-services__header">
        <div>
          <h2 className="default-services__title">Default Service Configuration</h2>
          <p className="default-services__subtitle">
            Configure which services are enabled by default and customize their pricing
          </p>
        </div>
        <button
          type="button"
          className="icon-button default-services__sync"
          title="Sync with Raw Services"
          aria-label="Sync with Raw Services"
          disabled={isSyncing}
          onClick={() => dispatch(defaultServicesSyncRequested())}
        >
          <span className={isSyncing ? 'default-services__spin' : undefined}>
            <SyncIcon />
          </span>
        </button>
      </header>
      {isLoading ? (
        <Loader label="Loading services…" />
      ) : loadError ? (
        <p className="default-services__error" role="alert">
          {loadError}
        </p>
      ) : services.length === 0 ? (
        <p className="default-services__empty">No services yet. Sync with the raw services to bring them in.</p>
      ) : (
        <div className="default-services__row" data-testid="default-services-row" {...handlers}>
          {services.map((service) => (
            <DefaultServiceCard
              key={service._id}
              service={service}
              raw={rawServices.find((r) => r.uid === service.uid)}
              isSaving={savingIds.includes(service._id)}
            />
          ))}
        </div>
      )}
    </section>
  );
}
