import type {
  CarrierServiceInfo,
  DefaultServicesRepo,
  DomainLogger,
  NewService,
  RawServiceSource,
  RawServicesRepo,
  ServiceRecord,
  ServiceShape,
  Transactor,
  Tx,
  UserServicesRepo,
} from './ports';
import { fitPriceListToMaxWeight, flatPriceList } from './price-list';
import { seedPricing } from './seed-prices';

export interface SyncServicesDeps {
  source: RawServiceSource;
  transactor: Transactor;
  rawServices: RawServicesRepo;
  defaultServices: DefaultServicesRepo;
  userServices: UserServicesRepo;
  logger?: DomainLogger;
}

/** Serialises sync with itself and with admin edits of default services, across replicas. */
export const SERVICES_LOCK = 'pricing:services';

const DEFAULT_CATEGORY = 'Other';

/**
 * What the carrier reports, made safe to store: one entry per uid, trimmed
 * texts, a whole-pound maximum (price ranges are whole pounds). Entries that
 * cannot be priced are skipped and logged rather than failing the whole sync.
 */
export function normaliseOffered(services: readonly CarrierServiceInfo[], logger?: DomainLogger): CarrierServiceInfo[] {
  const byUid = new Map<string, CarrierServiceInfo>();
  for (const s of services) {
    const uid = s.uid.trim();
    const maxWeight = Math.floor(s.maxWeight);
    if (uid === '' || !Number.isFinite(maxWeight) || maxWeight < 1 || byUid.has(uid)) {
      logger?.warn({ uid: s.uid, maxWeight: s.maxWeight }, 'skipping a carrier service that cannot be priced');
      continue;
    }
    byUid.set(uid, {
      uid,
      name: s.name.trim() || uid,
      category: s.category.trim() || DEFAULT_CATEGORY,
      carrier: s.carrier.trim(),
      maxWeight,
    });
  }
  return [...byUid.values()];
}

function reshaped(service: ServiceRecord, offered: CarrierServiceInfo): ServiceShape | null {
  if (service.maxWeight === offered.maxWeight && service.category === offered.category) return null;
  return {
    category: offered.category,
    maxWeight: offered.maxWeight,
    prices: fitPriceListToMaxWeight(service.prices, offered.maxWeight),
  };
}

/**
 * Brings the raw services in line with the carrier (new ones added, changed
 * ones refreshed, vanished ones inactive), creates a default for every new
 * service with its seeded flat price, and keeps every configured price list
 * ending at the carrier's maximum weight. Names and prices an admin set are
 * kept. Idempotent, and safe when replicas run it at the same time.
 */
export async function syncServices(deps: SyncServicesDeps): Promise<ServiceRecord[]> {
  const offered = normaliseOffered(await deps.source.list(), deps.logger);
  return deps.transactor.run(
    async (tx) => {
      await deps.rawServices.upsertActive(offered, tx);
      await deps.rawServices.markInactiveExcept(
        offered.map((s) => s.uid),
        tx,
      );

      const existing = new Map((await deps.defaultServices.list(tx)).map((s) => [s.uid, s]));
      const missing: NewService[] = offered
        .filter((s) => !existing.has(s.uid))
        .map((s) => {
          const seed = seedPricing(s.uid);
          return {
            uid: s.uid,
            name: s.name,
            category: s.category,
            maxWeight: s.maxWeight,
            enabled: seed.enabled,
            prices: flatPriceList(s.maxWeight, seed.flatPriceCents),
          };
        });
      await deps.defaultServices.insertMissing(missing, tx);
      if (missing.length > 0) deps.logger?.info({ uids: missing.map((s) => s.uid) }, 'default services created');

      for (const s of offered) {
        const current = existing.get(s.uid);
        if (!current) continue;
        const shape = reshaped(current, s);
        if (shape) await deps.defaultServices.setShape(current.id, shape, tx);
        await reshapeUserCopies(deps.userServices, s, tx);
      }
      return deps.defaultServices.list(tx);
    },
    { lockKey: SERVICES_LOCK },
  );
}

async function reshapeUserCopies(repo: UserServicesRepo, offered: CarrierServiceInfo, tx: Tx): Promise<void> {
  for (const copy of await repo.listByUid(offered.uid, tx)) {
    const shape = reshaped(copy, offered);
    if (shape) await repo.setShape(copy.id, shape, tx);
  }
}
