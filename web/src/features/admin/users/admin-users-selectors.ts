import type { RootState } from '../../../app/store';

export const selectUsersQuery = (state: RootState) => state.adminUsers.query;
export const selectUsersStatus = (state: RootState) => state.adminUsers.status;
export const selectUsersReply = (state: RootState) => state.adminUsers.reply;
export const selectBusyUserIds = (state: RootState) => state.adminUsers.busyIds;
export const selectLoginAs = (state: RootState) => state.adminUsers.loginAs;
export const selectLoginAsUserId = (state: RootState) => state.adminUsers.loginAsUserId;
export const selectAudit = (state: RootState) => state.adminUsers.audit;
export const selectResetLink = (state: RootState) => state.adminUsers.resetLink;
