import type { ACTIVATIONS, ROLES, SessionUser as WireSessionUser } from '@flatship/proto';

export type Role = (typeof ROLES)[number];
export type Activation = (typeof ACTIVATIONS)[number];

/**
 * The signed-in user as the app holds it. proto's `Role`/`Activation` come from
 * `Type.Union(array.map(...))`, whose static type is currently `never`, so the
 * literal unions are pinned here from the same constant lists.
 */
export type SessionUser = Omit<WireSessionUser, 'user_role' | 'activation'> & {
  user_role: Role;
  activation: Activation;
};
