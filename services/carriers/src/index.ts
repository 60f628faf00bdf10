export { CARRIER_ERRORS, CARRIER_REASONS, type CarrierErrorCode, refusal } from './carrier-messages';
export {
  describeEasyPostKey,
  describeEasyPostSetup,
  EASYPOST_CONFIG,
  EASYPOST_DEFAULT_BASE_URL,
  EasyPostConfigError,
  type EasyPostKeyMode,
  type EasyPostSettings,
  easyPostConfigProblems,
  easyPostKeyMode,
  easyPostSettings,
} from './easypost/config';
export {
  createEasyPostCarrier,
  EASYPOST_USPS_SERVICES,
  type EasyPostCarrier,
  type EasyPostCarrierOptions,
  type EasyPostLog,
} from './easypost/easypost-carrier';
export {
  EASYPOST_SIGNATURE_HEADER,
  type EasyPostWebhookEvent,
  easyPostSignature,
  parseEasyPostTrackerEvent,
} from './easypost/webhook';
export {
  type CarrierCallObservation,
  type CarrierHttp,
  CarrierHttpError,
  type CarrierHttpOptions,
  type CarrierHttpRequest,
  type CarrierHttpResponse,
  createCarrierHttp,
  retryAfterMs,
} from './http/carrier-http';
export { formatShipDate, formatWeight } from './label/format';
export type { LabelData } from './label/label-data';
export { LETTER, letterTwoUp } from './label/letter-2up';
export { mergePdfs, mergeWithPdfLib } from './label/pdf-merge';
export { parsePbm, pdfToZpl, zplFromPbm } from './label/pdf-to-zpl';
export {
  createInlineRenderer,
  createRenderPool,
  defaultRenderThreads,
  type LabelRenderer,
  type RenderPoolOptions,
  RenderThreadError,
  renderLabel,
} from './label/render-pool';
export { observePurchases, type PurchaseObservation } from './observe';
export { type CarrierPool, type CarrierPoolOptions, createCarrierPool } from './pool/carrier-pool';
export {
  createProcessRateSlots,
  createRateGate,
  type PurchaseGate,
  type RateClock,
  type RateGate,
  type RateGateOptions,
  type RateSlotStore,
  slotSpacingMs,
  systemRateClock,
} from './pool/rate-slots';
export {
  type AddressVerdict,
  CARRIER_CAPABILITIES,
  type Carrier,
  type CarrierCapability,
  type CarrierRefusal,
  type CarrierService,
  type ConnectionCheck,
  createProcessMemory,
  LABEL_FORMATS,
  type LabelAddress,
  type LabelFormat,
  type LabelParcel,
  type LabelReferences,
  type LabelRequest,
  type LabelResult,
  type PurchasedLabel,
  type PurchaseMemory,
  type RateRequest,
  type RateResult,
  type RefundResult,
  type RefundStatus,
  type ScanFormRequest,
  type ScanFormResult,
  supports,
  TRACKING_STATUSES,
  type TrackingEvent,
  type TrackingResult,
  type TrackingStatus,
  type VoidRequest,
} from './port';
export {
  CARRIER_ACCOUNTS_CONFIG,
  CARRIER_PLUGINS,
  CARRIER_RATE_LIMIT_DESCRIPTION,
  CARRIERS_DESCRIPTION,
  type CarrierPlugin,
  type CarrierRateLimits,
  type CarrierResult,
  type CarrierSet,
  type CarrierSettings,
  type ClosableCarrier,
  carrierAccountProblems,
  carrierAccountSettings,
  carrierConfigProblems,
  carrierListProblem,
  carrierRateLimitConfig,
  carrierRateLimits,
  carriersConfig,
  courierOfService,
  createCarrierSet,
  DEFAULT_CARRIERS,
  DEFAULT_ROUTE_REFRESH_MS,
  DEFAULT_SANDBOX_CARRIER_BALANCE,
  enabledCarrierServices,
  findCarrierByCourier,
  noPurchasesMemory,
  RATE_GUARD_MS,
  type RouteStore,
  readCarrierRateLimits,
  type ServiceRoute,
} from './registry';
export { SANDBOX_TRACKING_HOUR_MS, standardStreet } from './sandbox/extras';
export { type JourneyMove, journeyMovesIn, moveJourneyClock } from './sandbox/journey-clock';
export {
  createSandboxCarrier,
  SANDBOX_DEFAULT_MAILER_ID,
  SANDBOX_FAIL_RECIPIENT,
  type SandboxCarrier,
  type SandboxCarrierOptions,
} from './sandbox/sandbox-carrier';
export { isSandboxFailureKey, sandboxTrackingNumber } from './sandbox/tracking';
export { createTestParcelCarrier, TEST_PARCEL_SERVICES } from './test-parcel/test-parcel-carrier';
export { buildImpb, computeMod10CheckDigit, formatTrackingNumber, isValidImpb, isValidMailerId } from './usps/impb';
export { findUspsService, USPS_SERVICES, type UspsServiceDefinition } from './usps/services';
export {
  USPS_CONFIG,
  USPS_PRODUCTION_URL,
  USPS_TEST_URL,
  type UspsConfig,
  UspsConfigError,
  UspsConfigSchema,
  type UspsSettings,
  uspsConfigProblems,
  uspsSettingsOf,
} from './usps-api/config';
export { uspsIdempotencyKey } from './usps-api/idempotency';
export { uspsPlugin } from './usps-api/plugin';
export { createUspsCarrier, type UspsCarrierOptions } from './usps-api/usps-carrier';
export type { CarrierLogger } from './usps-api/usps-session';
