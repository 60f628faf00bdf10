import type {
  AdminUserChangeReply,
  AdminUserDeleteReply,
  AdminUsersQuery,
  AdminUsersReply,
  AuditQuery,
  AuditReply,
  LoginAsReply,
  ResetLinkReply,
  SetActivationRequest,
  SetRoleRequest,
  UserDetailsBody,
  UserDetailsReply,
} from '@flatship/proto';
import { deleteJson, getJson, postJson } from '../../../app/http';
import { queryString } from '../../../app/query-string';

const id = (value: string) => encodeURIComponent(value);

export const adminUsersApi = {
  list: (query: AdminUsersQuery) => getJson<AdminUsersReply>(`auth/users?${queryString(query)}`),
  saveDetails: (userId: string, body: UserDetailsBody) =>
    postJson<UserDetailsReply>(`auth/users/details/${id(userId)}`, body),
  setRole: (userId: string, body: SetRoleRequest) =>
    postJson<AdminUserChangeReply>(`auth/users/role/${id(userId)}`, body),
  setActivation: (userId: string, body: SetActivationRequest) =>
    postJson<AdminUserChangeReply>(`auth/users/activation/${id(userId)}`, body),
  remove: (userId: string) => deleteJson<AdminUserDeleteReply>(`auth/users/${id(userId)}`),
  loginAs: (userId: string) => postJson<LoginAsReply>(`auth/login-as-user/${id(userId)}`, {}),
  /** GET /api/admin/audit: what admins did while signed in as a user, newest first. */
  audit: (query: AuditQuery) => getJson<AuditReply>(`admin/audit?${queryString(query)}`),
  /** POST /api/auth/users/{id}/reset-link: a single-use password reset link to hand to the user. */
  resetLink: (userId: string) => postJson<ResetLinkReply>(`auth/users/${id(userId)}/reset-link`, {}),
};
