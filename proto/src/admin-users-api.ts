import { type Static, Type } from 'typebox';
import { ActivationSchema, RoleSchema, SessionUserSchema } from './users';

/**
 * Admin user management (spec doc 3 §2, §7). The table is paged, searched and
 * sorted by the server so it stays fast with any number of users; the spec's
 * "all users" is every page of it.
 */

/** Columns the user table sorts by. */
export const ADMIN_USER_SORTS = [
  'name',
  'email',
  'user_role',
  'activation',
  'referralCode',
  'totalDeposit',
  'totalSpent',
  'balance',
  'createdAt',
] as const;
export type AdminUserSort = (typeof ADMIN_USER_SORTS)[number];
export const AdminUserSortSchema = Type.Union([
  Type.Literal('name'),
  Type.Literal('email'),
  Type.Literal('user_role'),
  Type.Literal('activation'),
  Type.Literal('referralCode'),
  Type.Literal('totalDeposit'),
  Type.Literal('totalSpent'),
  Type.Literal('balance'),
  Type.Literal('createdAt'),
]);

export const ADMIN_USERS_PAGE_SIZES = [10, 25, 50, 100] as const;
/** What an absent query part means. */
export const ADMIN_USERS_DEFAULT_QUERY = { page: 1, limit: 25, sort: 'createdAt', order: 'desc' } as const;

/**
 * GET /api/auth/users?page&limit&search&sort&order. `search` matches name,
 * email or referral code, case-insensitively, anywhere in the text.
 */
export const AdminUsersQuerySchema = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  search: Type.Optional(Type.String({ maxLength: 200 })),
  sort: Type.Optional(AdminUserSortSchema),
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
});
export type AdminUsersQuery = Static<typeof AdminUsersQuerySchema>;

/** A row of the user table: the user as the SPA knows users, money in dollars. */
export const AdminUserRowSchema = SessionUserSchema;
export type AdminUserRow = Static<typeof AdminUserRowSchema>;

export const AdminUsersReplySchema = Type.Object({
  users: Type.Array(AdminUserRowSchema),
  /** Users matching the search, over every page. */
  totalCount: Type.Integer(),
  page: Type.Integer(),
  limit: Type.Integer(),
  /** The totals row: sums over every user matching the search, in dollars. */
  totals: Type.Object({ balance: Type.Number(), totalDeposit: Type.Number(), totalSpent: Type.Number() }),
});
export type AdminUsersReply = Static<typeof AdminUsersReplySchema>;

/** POST /api/auth/users/role/{id} */
export const SetRoleRequestSchema = Type.Object({ user_role: RoleSchema });
export type SetRoleRequest = Static<typeof SetRoleRequestSchema>;

/** POST /api/auth/users/activation/{id} */
export const SetActivationRequestSchema = Type.Object({ activation: ActivationSchema });
export type SetActivationRequest = Static<typeof SetActivationRequestSchema>;

/** The answer of the role, activation and delete calls: what happened, and the user as it is now. */
export const AdminUserChangeReplySchema = Type.Object({ message: Type.String(), user: AdminUserRowSchema });
export type AdminUserChangeReply = Static<typeof AdminUserChangeReplySchema>;

/** DELETE /api/auth/users/{id} */
export const AdminUserDeleteReplySchema = Type.Object({ message: Type.String() });
export type AdminUserDeleteReply = Static<typeof AdminUserDeleteReplySchema>;

/**
 * POST /api/auth/login-as-user/{id}: a token for the user that also names the
 * admin (claim `imp`), and the user. The SPA keeps the admin's own token to
 * come back with.
 */
export const LoginAsReplySchema = Type.Object({
  message: Type.String(),
  token: Type.String(),
  user: SessionUserSchema,
});
export type LoginAsReply = Static<typeof LoginAsReplySchema>;

/**
 * GET /api/auth/api/balance: the carrier account balance, in dollars, from every enabled carrier. `warnBelow` is
 * the admin service's threshold (`CARRIER_BALANCE_WARN_CENTS`, in dollars here): an account below it `isLow`, and
 * the reply `isLow` when any account is, since each carrier's labels are paid from its own account.
 */
export const CarrierBalanceReplySchema = Type.Object({
  balance: Type.Number(),
  warnBelow: Type.Number(),
  isLow: Type.Boolean(),
  carriers: Type.Array(
    Type.Object({ id: Type.String(), name: Type.String(), balance: Type.Number(), isLow: Type.Boolean() }),
  ),
});
export type CarrierBalanceReply = Static<typeof CarrierBalanceReplySchema>;

/**
 * POST /api/admin/carriers/check (admins only): each enabled carrier called with the configured account, and what it
 * answered: `ok` with what was checked (`detail`), or not with a `message` fit to act on. Never a credential.
 */
export const CarrierConnectionReplySchema = Type.Object({
  carriers: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      ok: Type.Boolean(),
      /** What the carrier confirmed (ok) or what is wrong (not ok). */
      message: Type.String(),
      /** How long the check took, in milliseconds. */
      ms: Type.Integer({ minimum: 0 }),
    }),
  ),
});
export type CarrierConnectionReply = Static<typeof CarrierConnectionReplySchema>;

/**
 * GET /api/admin/carriers/routes (admins only): which enabled carrier sells each service. `carriers` is the route in
 * order: the first sells, each next one is asked only when the one before certainly bought nothing (its credentials
 * refused, throttled, unreachable).
 */
export const CarrierRoutesReplySchema = Type.Object({
  services: Type.Array(
    Type.Object({
      uid: Type.String(),
      name: Type.String(),
      carriers: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
      /** The enabled carriers that sell the service, in `CARRIERS` order: what its route may name. */
      sellers: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
    }),
  ),
});
export type CarrierRoutesReply = Static<typeof CarrierRoutesReplySchema>;

/** A registry id of a carrier plugin (`sandbox-usps`, `usps`, `easypost`). */
const CarrierIdSchema = Type.String({ minLength: 1, maxLength: 40, pattern: '^[a-z0-9-]+$' });
/** A service's route: the carrier that sells first, then each one standing by, at most ten. */
const RouteCarriersSchema = Type.Array(CarrierIdSchema, { minItems: 1, maxItems: 10 });

/**
 * PUT /api/admin/carriers/routes (admins only): switches services between the enabled carriers that sell them. Each
 * service named gets the route given; the others keep theirs. The answer is every service's route, as GET gives it.
 */
export const CarrierRoutesUpdateSchema = Type.Object(
  {
    services: Type.Array(
      Type.Object({ uid: Type.String({ minLength: 1, maxLength: 100 }), carriers: RouteCarriersSchema }),
      { minItems: 1, maxItems: 100 },
    ),
  },
  { additionalProperties: false },
);
export type CarrierRoutesUpdate = Static<typeof CarrierRoutesUpdateSchema>;

/** The routes as orders keeps them, every service's (GET and PUT /internal/carrier-routes on orders). */
export const InternalCarrierRoutesSchema = Type.Object({
  routes: Type.Array(Type.Object({ serviceUid: Type.String(), carriers: Type.Array(Type.String()) })),
});
export type InternalCarrierRoutes = Static<typeof InternalCarrierRoutesSchema>;

/** PUT /internal/carrier-routes on orders: the routes to keep, and the admin who chose them. */
export const InternalCarrierRoutesUpdateSchema = Type.Object(
  {
    routes: Type.Array(
      Type.Object({ serviceUid: Type.String({ minLength: 1, maxLength: 100 }), carriers: RouteCarriersSchema }),
      { minItems: 1, maxItems: 100 },
    ),
    updatedBy: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type InternalCarrierRoutesUpdate = Static<typeof InternalCarrierRoutesUpdateSchema>;

/**
 * GET /api/admin/audit?page&limit&userId&adminId: what admins did while
 * signed in as a user, newest first. Every change made with a login-as token
 * is recorded with both ids.
 */
export const AuditQuerySchema = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  userId: Type.Optional(Type.String({ format: 'uuid' })),
  adminId: Type.Optional(Type.String({ format: 'uuid' })),
});
export type AuditQuery = Static<typeof AuditQuerySchema>;

export const AuditEntrySchema = Type.Object({
  _id: Type.String(),
  at: Type.String(),
  adminId: Type.String(),
  adminEmail: Type.Union([Type.String(), Type.Null()]),
  userId: Type.String(),
  userEmail: Type.Union([Type.String(), Type.Null()]),
  method: Type.String(),
  path: Type.String(),
  status: Type.Integer(),
});
export type AuditEntry = Static<typeof AuditEntrySchema>;

export const AuditReplySchema = Type.Object({ entries: Type.Array(AuditEntrySchema), totalCount: Type.Integer() });
export type AuditReply = Static<typeof AuditReplySchema>;

/** POST /internal/users-view/seed (admin): fills the user table from auth and payments; how many users it read. */
export const UsersViewSeedReplySchema = Type.Object({ users: Type.Integer() });
export type UsersViewSeedReply = Static<typeof UsersViewSeedReplySchema>;
