/**
 * The courier a new order row starts with, in the browser's single-label form and bulk table (spec doc 1 §9:
 * "Courier: usps"). It is the courier of the built-in carrier, first in the default `CARRIERS`. A row's courier is
 * only where it starts: the server records each label with the carrier that sells its service. Kept here rather than
 * sent by the server so the public answers stay exactly the spec's.
 */
export const DEFAULT_COURIER = 'usps';
