import type {
  ExportedUser,
  InternalUser,
  SessionUser,
  TokenClaims,
  TokenState,
  UserChangedEvent,
} from '@flatship/proto';
import type { MoneySummary, MoneySummarySource, UserRecord } from './ports';

const NO_MONEY: MoneySummary = { balance: 0, totalDeposit: 0, totalSpent: 0 };

export function toInternalUser(user: UserRecord): InternalUser {
  return {
    _id: user.id,
    name: user.name,
    email: user.email,
    avatar: user.avatar,
    user_role: user.role,
    activation: user.activation,
    referralCode: user.referralCode,
    referredBy: user.referredBy,
    createdAt: user.createdAt.toISOString(),
  };
}

export function toSessionUser(user: UserRecord, money: MoneySummary = NO_MONEY): SessionUser {
  return {
    ...toInternalUser(user),
    balance: money.balance,
    totalDeposit: money.totalDeposit,
    totalSpent: money.totalSpent,
  };
}

/** The session user with their money fields; a user payments does not know yet has none. */
export async function loadSessionUser(deps: { money: MoneySummarySource }, user: UserRecord): Promise<SessionUser> {
  const money = await deps.money.get([user.id]);
  return toSessionUser(user, money.get(user.id));
}

export function toTokenState(user: UserRecord): TokenState {
  return {
    id: user.id,
    role: user.role,
    activation: user.activation,
    tokenVersion: user.tokenVersion,
    impersonationVersion: user.impersonationVersion,
  };
}

export function claimsFor(user: UserRecord): TokenClaims {
  return { sub: user.id, role: user.role, ver: user.tokenVersion };
}

/** What `user.changed` carries: the token state and the profile as it is now (or that the user is deleted). */
export function toUserChangedEvent(user: UserRecord): UserChangedEvent {
  return {
    ...toTokenState(user),
    ...(user.deletedAt ? { deleted: true } : {}),
    name: user.name,
    email: user.email,
    avatar: user.avatar,
    referralCode: user.referralCode,
    referredBy: user.referredBy,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

export function toExportedUser(user: UserRecord): ExportedUser {
  return {
    ...toInternalUser(user),
    updatedAt: user.updatedAt.toISOString(),
    deletedAt: user.deletedAt ? user.deletedAt.toISOString() : null,
  };
}
