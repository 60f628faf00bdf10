import type { Migration } from '@flatship/kit';
import { createLedger } from './0001-ledger';
import { depositSettlement } from './0002-deposit-settlement';
import { accountChanges } from './0003-account-changes';
import { accountTotals } from './0004-account-totals';
import { freeLabels } from './0005-free-labels';
import { referralBonus } from './0006-referral-bonus';

export { PAYMENTS_SCHEMA } from './schema';

/** Applied in this order, each once; never edit one that has shipped, add the next. */
export const migrations: Migration[] = [
  createLedger,
  depositSettlement,
  accountChanges,
  accountTotals,
  freeLabels,
  referralBonus,
];
