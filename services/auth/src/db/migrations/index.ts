import type { Migration } from '@flatship/kit';
import { createUsers } from './0001-users';
import { createOutbox } from './0002-outbox';
import { createAddresses } from './0003-addresses';
import { createSkus } from './0004-skus';
import { softDeleteUsers } from './0005-soft-delete';
import { createPasswordResets } from './0006-password-resets';
import { addImpersonationVersion } from './0007-impersonation-version';
import { addAddressCheck } from './0008-address-check';
import { addReferredAt } from './0009-referred-at';

export { AUTH_SCHEMA } from './schema';

/** Applied in this order, each once; never edit one that has shipped, add the next. */
export const migrations: Migration[] = [
  createUsers,
  createOutbox,
  createAddresses,
  createSkus,
  softDeleteUsers,
  createPasswordResets,
  addImpersonationVersion,
  addAddressCheck,
  addReferredAt,
];
