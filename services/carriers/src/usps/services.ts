import type { MarketplaceCarrierCodes } from '@flatship/proto';
import type { CarrierService } from '../port';

export interface UspsServiceDefinition extends CarrierService {
  /** IMpb Service Type Code for the service with no extra services (Publication 199, appendix). */
  serviceTypeCode: string;
  /** The large letter in the top-left box of the label. */
  letter: 'P' | 'G' | 'E';
  /** The service banner printed across the label. */
  banner: string;
  trackingBanner: string;
}

// USPS caps all three domestic services at 70 lb (DMM 601), so maxWeight is the real limit, not a default.
// STCs: 055 Priority Mail and 701 Priority Mail Express are long-standing; Ground Advantage took over the
// First-Class Package Service code 001 in July 2023. Confirm against the current Publication 199 before a live
// adapter reuses them.
export const USPS_SERVICES: readonly UspsServiceDefinition[] = [
  {
    uid: 'usps_priority_mail',
    name: 'USPS Priority Mail',
    category: 'USPS',
    carrier: 'usps',
    maxWeight: 70,
    serviceTypeCode: '055',
    letter: 'P',
    banner: 'USPS PRIORITY MAIL®',
    trackingBanner: 'USPS TRACKING # ',
  },
  {
    uid: 'usps_ground_advantage',
    name: 'USPS Ground Advantage',
    category: 'USPS',
    carrier: 'usps',
    maxWeight: 70,
    serviceTypeCode: '001',
    letter: 'G',
    banner: 'USPS GROUND ADVANTAGE™',
    trackingBanner: 'USPS TRACKING # ',
  },
  {
    uid: 'usps_priority_mail_express',
    name: 'USPS Priority Mail Express',
    category: 'USPS',
    carrier: 'usps',
    maxWeight: 70,
    serviceTypeCode: '701',
    letter: 'E',
    banner: 'USPS PRIORITY MAIL EXPRESS®',
    trackingBanner: 'USPS TRACKING # EP',
  },
];

/** The USPS services as a carrier lists them (`CarrierService`): what every plugin selling USPS sells. */
export function uspsCarrierServices(): CarrierService[] {
  return USPS_SERVICES.map(({ uid, name, category, carrier, maxWeight }) => ({
    uid,
    name,
    category,
    carrier,
    maxWeight,
  }));
}

export function findUspsService(uid: string): UspsServiceDefinition | undefined {
  return USPS_SERVICES.find((s) => s.uid === uid);
}

/** How USPS is named in each marketplace's confirmation file (Walmart lists it as `USPS`). */
export const USPS_MARKETPLACE_CODES: MarketplaceCarrierCodes = {
  amazon: { carrierCode: 'USPS', carrierName: 'USPS' },
  walmart: { carrierCode: 'USPS', carrierName: 'USPS' },
  ebay: { carrierCode: 'USPS', carrierName: 'USPS' },
  // TikTok Shop's US shipping provider list names it `USPS`.
  tiktok: { carrierCode: 'USPS', carrierName: 'USPS' },
};
