import type {
  EndLoginAsReply,
  LoginBody,
  LoginReply,
  ReferralApplyReply,
  RegisterBody,
  RegisterReply,
  VerifyReply,
} from '@flatship/proto';
import { getJson, postJson } from '../../app/http';

export const authApi = {
  login: (body: LoginBody) => postJson<LoginReply>('auth/login', body),
  register: (body: RegisterBody) => postJson<RegisterReply>('auth/register', body),
  verify: () => getJson<VerifyReply>('auth/verify'),
  /** Ends every Login As token of the admin behind the current token (the admin's own, or a Login As one). */
  endLoginAs: () => postJson<EndLoginAsReply>('auth/login-as/end', {}),
  // The reply may omit token/user (e.g. when nothing about the session changed).
  applyReferral: (referralCode: string) =>
    postJson<Partial<ReferralApplyReply>>('invite/referral/apply', { referralCode }),
};
