/**
 * The price a new install sells each carrier service at. The landing page
 * promises one flat price whatever the weight, so each seeded list is a single
 * range from 1 lb to the service's maximum. Admins change them afterwards.
 */
export const SEED_FLAT_PRICE_CENTS: Readonly<Record<string, number>> = {
  usps_ground_advantage: 650,
  usps_priority_mail: 895,
  usps_priority_mail_express: 2995,
};

/**
 * A service the carrier adds later has no agreed price yet: it is created
 * disabled, at the dearest seeded price, so nothing sells before an admin has
 * looked at it and nothing would sell below cost if one is careless.
 */
export const UNPRICED_SERVICE_CENTS = Math.max(...Object.values(SEED_FLAT_PRICE_CENTS));

export function seedPricing(uid: string): { enabled: boolean; flatPriceCents: number } {
  const cents = SEED_FLAT_PRICE_CENTS[uid];
  return cents === undefined
    ? { enabled: false, flatPriceCents: UNPRICED_SERVICE_CENTS }
    : { enabled: true, flatPriceCents: cents };
}
