import { PASSWORD_RESET_TTL_MINUTES } from '@flatship/proto';

/** The texts admins see. Where the spec gives a text, it is that text. */
export const MESSAGES = {
  resetLinkIssued: `Password reset link created. Hand it to the user: it works once, within ${PASSWORD_RESET_TTL_MINUTES} minutes.`,
  detailsUpdated: 'User details updated successfully',
  nothingToUpdate: 'Nothing to update',
  balanceInvalid: 'Balance must be a number of dollars, 0 or more, with at most 2 decimals',
  balanceTooLarge: 'Balance must be at most $1,000,000.00',
  referralCodeRequired: 'Referral code is required',
  idempotencyKeyTooLong: 'Idempotency-Key must be at most 150 characters',
  roleUpdated: 'User role updated successfully',
  accessUpdated: 'User access updated successfully',
  userDeleted: 'User deleted successfully',
  ownRole: 'You cannot remove your own admin role',
  ownAccess: 'You cannot block your own account',
  ownDelete: 'You cannot delete your own account',
  ownLoginAs: 'You cannot log in as yourself',
  loggedInAs: (name: string) => `Logged in as ${name}`,
  carrierUnreachable: 'The carrier could not be reached to read its balance. Try again in a moment.',
  connectionFailed:
    'The carrier did not answer the check. Look at the admin service log for its error, then try again.',
  connectionUnsupported: 'This carrier has no connection check.',
  routeRefused: (why: string) => `The route cannot be used: ${why}.`,
  routeNamedTwice: (uid: string) => `The service ${uid} is named twice.`,
  referralBonusSaved: 'Referral bonus saved',
  referralBonusOff: 'Referral bonus saved: the program is off',
  formerAdmin: 'a deleted admin',
} as const;
