/** Spec doc 3 §8 and §9: service messages, shown for 3 s. */
export const USER_SERVICES_MESSAGES = {
  loadFailed: 'Failed to load services',
  toggleFailed: 'Failed to update service status',
  pricesFailed: 'Failed to update service prices',
} as const;
export const SERVICE_TOAST_DURATION = 3000;
