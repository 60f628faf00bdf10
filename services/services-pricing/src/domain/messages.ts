/** Every text this service answers with; where the spec gives a text, it is that text. */
export const MESSAGES = {
  invalidRanges:
    'Invalid price ranges. Please ensure ranges are continuous from 1 to max weight without gaps or overlaps.',
  invalidPrice: 'Price must be 0 or more with at most 2 decimals',
  priceTooHigh: 'Price must be at most $100,000.00',
  nameEmpty: 'Service name cannot be empty',
  nameTaken: (name: string) => `Another service is already named "${name}"`,
  serviceNotFound: 'Service not found',
  serviceUnknown: (name: string) => `Service "${name}" is not available`,
  serviceMissing: 'Please select a service',
  serviceDisabled: (name: string) => `${name} is not available on your account`,
  weightOverMax: (weight: number, maxWeight: number, name: string) =>
    `Weight ${weight} lb is over the ${maxWeight} lb maximum for ${name}`,
  enabled: 'Service enabled successfully',
  disabled: 'Service disabled successfully',
  pricesUpdated: 'Prices updated successfully',
  nameUpdated: 'Service name updated successfully',
  synchronized: 'Services synchronized successfully',
  initialized: 'Services initialized successfully',
} as const;
