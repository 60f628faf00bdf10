export type { Activation, Role, SessionUser } from '@flatship/proto';
