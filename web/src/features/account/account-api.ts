import type { AccountUpdateBody, AccountUpdateReply } from '@flatship/proto';
import { patchJson } from '../../app/http';

export const accountApi = {
  update: (body: AccountUpdateBody) => patchJson<AccountUpdateReply>('auth/account', body),
};
