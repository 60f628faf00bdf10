import type { AddressInput, AddressResult, SavedAddressReply } from '@flatship/proto';
import { getJson, postJson } from '../../app/http';

const user = (userId: string) => encodeURIComponent(userId);

export const addressApi = {
  /** Also the saved-address picker of the single-label and bulk screens. */
  list: (userId: string) => getJson<SavedAddressReply>(`auth/get-address/${user(userId)}`),
  add: (userId: string, input: AddressInput) => postJson<AddressResult>(`auth/save-address/${user(userId)}`, input),
  update: (userId: string, id: string, input: AddressInput) =>
    postJson<AddressResult>(`auth/update-address/${user(userId)}/${encodeURIComponent(id)}`, input),
  remove: (userId: string, id: string) => postJson<AddressResult>(`auth/delete-address/${user(userId)}`, { id }),
};
