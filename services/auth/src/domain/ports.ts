import type { Tx } from '@flatship/kit';
import type {
  Activation,
  AddressCheck,
  ReferralBonusState,
  Role,
  TokenClaims,
  UserChangedEvent,
} from '@flatship/proto';

export type { Clock, DomainLogger, Transactor, Tx } from '@flatship/kit';

/** A user row as the domain sees it. */
export interface UserRecord {
  id: string;
  name: string;
  email: string;
  passwordHash: string;
  role: Role;
  activation: Activation;
  tokenVersion: number;
  /** Carried by the login-as tokens the user issues as an admin (claim `iv`); moving it on ends them all. */
  impersonationVersion: number;
  referralCode: string;
  referredBy: string | null;
  /** When the user took the referrer's code (null with no referrer): a bonus needs a first deposit after it. */
  referredAt: Date | null;
  avatar: string;
  createdAt: Date;
  updatedAt: Date;
  /** Set once the user is deleted; such a user is kept for the books but found by nothing but the export. */
  deletedAt: Date | null;
}

export interface NewUser {
  name: string;
  email: string;
  passwordHash: string;
  role: Role;
  activation: Activation;
  referralCode: string;
  referredBy: string | null;
}

/** Inserting can only fail on a taken email or a referral code that is already in use. */
export type InsertUserResult = { ok: true; user: UserRecord } | { ok: false; conflict: 'email' | 'referralCode' };

export interface UsersRepo {
  findById(id: string, tx?: Tx): Promise<UserRecord | null>;
  /** Deleted users too (`deletedAt` set): for the books, where who someone was still matters. */
  findByIdWithDeleted(id: string, tx?: Tx): Promise<UserRecord | null>;
  /** `email` is already normalised. */
  findByEmail(email: string, tx?: Tx): Promise<UserRecord | null>;
  /** Compares case-insensitively. */
  findByReferralCode(code: string, tx?: Tx): Promise<UserRecord | null>;
  insert(user: NewUser, tx?: Tx): Promise<InsertUserResult>;
  updateName(id: string, name: string, tx?: Tx): Promise<UserRecord | null>;
  /** Stores the new hash and bumps the token version, revoking older tokens. */
  updatePassword(id: string, passwordHash: string, tx?: Tx): Promise<UserRecord | null>;
  /** Sets the referrer only if none is set yet; null when the user is missing or already referred. */
  setReferredByOnce(id: string, referrerId: string, tx?: Tx): Promise<UserRecord | null>;
  /** Changes activation and bumps the token version; null when missing or already at that value. */
  changeActivation(id: string, activation: Activation, tx?: Tx): Promise<UserRecord | null>;
  /** Changes the role and bumps the token version; null when missing or already that role. */
  changeRole(id: string, role: Role, tx?: Tx): Promise<UserRecord | null>;
  /** Users who registered with this user's code, newest first. */
  listReferredBy(referrerId: string, tx?: Tx): Promise<UserRecord[]>;
  hasAdmin(tx?: Tx): Promise<boolean>;
  /** Replaces the user's referral code; null when the user is missing, a conflict when another user has it. */
  setReferralCode(id: string, code: string, tx?: Tx): Promise<SetReferralCodeResult | null>;
  /** Ends every login-as token the user issued as an admin, and only those; null when missing. */
  bumpImpersonationVersion(id: string, tx?: Tx): Promise<UserRecord | null>;
  /** Marks the user deleted and bumps the token version; null when missing or already deleted. */
  softDelete(id: string, tx?: Tx): Promise<UserRecord | null>;
  /** Every user, deleted ones too, in id order, after `after`. */
  exportPage(after: string | undefined, limit: number, tx?: Tx): Promise<UserRecord[]>;
}

export interface NewPasswordReset {
  userId: string;
  /** Hex SHA-256 of the token in the link; the token itself is never stored. */
  tokenHash: string;
  expiresAt: Date;
}

export interface PasswordResetsRepo {
  insert(reset: NewPasswordReset, tx?: Tx): Promise<void>;
  /** Marks the link used if it is unused and not expired at `now`; the user it belongs to, or null. */
  consume(tokenHash: string, now: Date, tx?: Tx): Promise<string | null>;
  /** Marks every unused link of the user used, so a link sent earlier dies with the reset. */
  retireAll(userId: string, now: Date, tx?: Tx): Promise<void>;
}

/** A password reset email; `link` is the page where the new password is chosen. */
export interface ResetMail {
  to: string;
  name: string;
  link: string;
  expiresAt: Date;
}

/** Delivers reset links: by email when SMTP is configured; else only a log line saying one was asked for (never the link). */
export interface ResetMailer {
  send(mail: ResetMail): Promise<void>;
}

export type SetReferralCodeResult = { ok: true; user: UserRecord } | { ok: false; conflict: 'referralCode' };

/** The fields of a saved address, already checked and normalised by the address rules. */
export interface AddressFields {
  addressId: string;
  name: string;
  company: string;
  phone: string;
  street: string;
  street2: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  /** What the carrier said when the address was saved; null when it was not asked (or before checks existed). */
  check?: AddressCheck | null;
}

/** Asks the carrier about an address (through orders, which has the carriers); never throws. */
export interface AddressChecker {
  check(
    address: Pick<AddressFields, 'name' | 'company' | 'street' | 'street2' | 'city' | 'state' | 'zip'>,
  ): Promise<AddressCheck>;
}

export interface AddressRecord extends AddressFields {
  id: string;
  userId: string;
  createdAt: Date;
  updatedAt: Date;
}

/** Writing an address fails only on a label (address_id) the user already uses for another address. */
export type WriteAddressResult = { ok: true; address: AddressRecord } | { ok: false; conflict: 'addressId' };

/** Every method is scoped to one user: an address of someone else is, to them, not there. */
export interface AddressesRepo {
  /** Oldest first. */
  listByUser(userId: string, tx?: Tx): Promise<AddressRecord[]>;
  countByUser(userId: string, tx?: Tx): Promise<number>;
  insert(userId: string, fields: AddressFields, tx?: Tx): Promise<WriteAddressResult>;
  /** null when the user has no address with that id. */
  update(userId: string, id: string, fields: AddressFields, tx?: Tx): Promise<WriteAddressResult | null>;
  /** false when the user has no address with that id. */
  delete(userId: string, id: string, tx?: Tx): Promise<boolean>;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /**
   * Spends the time of one verification without a real hash, so that an
   * unknown email answers as slowly as a wrong password.
   */
  verifyNothing(password: string): Promise<void>;
}

export interface MoneySummary {
  balance: number;
  totalDeposit: number;
  totalSpent: number;
}

/** Money fields of users, in dollars. Balances live in payments; users it does not know are absent. */
export interface MoneySummarySource {
  get(userIds: string[]): Promise<Map<string, MoneySummary>>;
}

/** The referral bonus of each referred user, both sides (payments keeps them); users it was not asked about are absent. */
export interface ReferralBonusSource {
  get(referredUserIds: string[]): Promise<Map<string, ReferralBonusState>>;
}

/** Records `user.changed` in the caller's transaction, so it is relayed only if the change commits. */
export type PublishUserChanged = (tx: Tx, event: UserChangedEvent) => Promise<void>;

/** Signs an access token; `expiresIn` (e.g. `1h`) instead of the configured lifetime of sessions. */
export type SignToken = (claims: TokenClaims, opts?: { expiresIn: string }) => string;
