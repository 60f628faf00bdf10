import type {
  AdminUserChangeReply,
  AdminUserDeleteReply,
  AdminUsersQuery,
  AdminUsersReply,
  LoginAsReply,
  SetActivationRequest,
  SetRoleRequest,
  UserDetailsBody,
  UserDetailsReply,
} from '@flatship/proto';
import { deleteJson, getJson, postJson } from '../../../app/http';

const id = (value: string) => encodeURIComponent(value);

/** The query string of GET /api/auth/users; an empty search is left out. */
export function usersSearchParams(query: AdminUsersQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  return params.toString();
}

export const adminUsersApi = {
  list: (query: AdminUsersQuery) => getJson<AdminUsersReply>(`auth/users?${usersSearchParams(query)}`),
  saveDetails: (userId: string, body: UserDetailsBody) =>
    postJson<UserDetailsReply>(`auth/users/details/${id(userId)}`, body),
  setRole: (userId: string, body: SetRoleRequest) =>
    postJson<AdminUserChangeReply>(`auth/users/role/${id(userId)}`, body),
  setActivation: (userId: string, body: SetActivationRequest) =>
    postJson<AdminUserChangeReply>(`auth/users/activation/${id(userId)}`, body),
  remove: (userId: string) => deleteJson<AdminUserDeleteReply>(`auth/users/${id(userId)}`),
  loginAs: (userId: string) => postJson<LoginAsReply>(`auth/login-as-user/${id(userId)}`, {}),
};
