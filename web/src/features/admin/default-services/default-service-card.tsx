import type { ConfiguredService, RawService } from '@flatship/proto';
import { useEffect, useState } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { PriceRangesEditor } from '../services/price-ranges-editor';
import {
  defaultServicePricesSaveRequested,
  defaultServiceRenameRequested,
  defaultServiceToggleRequested,
} from './default-services-slice';

interface DefaultServiceCardProps {
  service: ConfiguredService;
  /** The carrier's own record of this service, when it was loaded. */
  raw: RawService | undefined;
  isSaving: boolean;
}

export function DefaultServiceCard({ service, raw, isSaving }: DefaultServiceCardProps) {
  const dispatch = useAppDispatch();
  const [name, setName] = useState(service.name);
  // What the server holds replaces the drafts whenever it changes (a save, a sync).
  useEffect(() => setName(service.name), [service.name]);

  const headingId = `default-service-${service._id}`;
  const maxWeight = raw?.maxWeight ?? service.maxWeight;
  const isInactive = (raw?.status ?? service.status) === 'inactive';

  return (
    <article className="card default-service" aria-labelledby={headingId} aria-busy={isSaving}>
      <header className="default-service__header">
        <h3 id={headingId} className="default-service__name">
          {service.name}
        </h3>
        <label className="default-service__toggle">
          <input
            type="checkbox"
            role="switch"
            aria-checked={service.enabled}
            aria-label={`${service.name} enabled`}
            checked={service.enabled}
            disabled={isSaving}
            onChange={() => dispatch(defaultServiceToggleRequested({ id: service._id, enabled: !service.enabled }))}
          />
          <span>{service.enabled ? 'Enabled' : 'Disabled'}</span>
        </label>
      </header>
      <dl className="default-service__facts">
        <dt>Carrier</dt>
        <dd>{raw?.carrier ?? '—'}</dd>
        <dt>Category</dt>
        <dd>{raw?.category ?? service.category}</dd>
        <dt>Max weight</dt>
        <dd>{maxWeight} lb</dd>
        <dt>Carrier status</dt>
        <dd className={isInactive ? 'default-service__inactive' : undefined}>{isInactive ? 'Inactive' : 'Active'}</dd>
      </dl>
      <form
        className="default-service__rename"
        onSubmit={(event) => {
          event.preventDefault();
          dispatch(defaultServiceRenameRequested({ id: service._id, name }));
        }}
      >
        <label htmlFor={`${headingId}-name`}>Service name</label>
        <div className="default-service__row">
          <input
            id={`${headingId}-name`}
            className="input"
            value={name}
            maxLength={200}
            disabled={isSaving}
            onChange={(e) => setName(e.target.value)}
          />
          <button type="submit" className="button button--ghost" disabled={isSaving || name === service.name}>
            Save name
          </button>
        </div>
      </form>
      <section className="default-service__prices" aria-label={`Prices of ${service.name}`}>
        <PriceRangesEditor
          prices={service.prices}
          maxWeight={maxWeight}
          serviceName={service.name}
          isSaving={isSaving}
          onSave={(prices) => dispatch(defaultServicePricesSaveRequested({ id: service._id, prices, maxWeight }))}
        />
      </section>
    </article>
  );
}
