import type { LoginBody, ReferralBonusTerms, RegisterBody } from '@flatship/proto';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { adminSessionStorage, type KeptAdminSession, tokenStorage } from '../../app/token-storage';
import type { SessionUser } from './session-user';

export type RequestStatus = 'idle' | 'loading' | 'succeeded' | 'failed';
/** unknown: not checked yet; checking: verify in flight; verified / failed: its outcome. */
export type SessionStatus = 'unknown' | 'checking' | 'verified' | 'failed';

export interface AuthState {
  token: string | null;
  user: SessionUser | null;
  /** Status and error of the login / register form being submitted. */
  status: RequestStatus;
  error: string | null;
  session: SessionStatus;
  referral: { status: RequestStatus; error: string | null };
  /** The referral bonus as onboarding states it; null until read, or when it could not be read. */
  referralTerms: ReferralBonusTerms | null;
  /** Set while an admin is signed in as a user (Login As): the admin's own session, to come back to. */
  impersonator: KeptAdminSession | null;
}

export interface SessionPayload {
  token: string;
  user: SessionUser;
}

const initialState = (): AuthState => ({
  token: tokenStorage.get(),
  user: null,
  status: 'idle',
  error: null,
  session: 'unknown',
  referral: { status: 'idle', error: null },
  referralTerms: null,
  impersonator: adminSessionStorage.get(),
});

function signIn(state: AuthState, { token, user }: SessionPayload) {
  state.token = token;
  state.user = user;
  state.session = 'verified';
}

/** A sign-in of one's own (form, lost session) ends any Login As. */
function signInAsSelf(state: AuthState, payload: SessionPayload) {
  signIn(state, payload);
  state.impersonator = null;
}

export const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    loginSubmitted(state, _action: PayloadAction<LoginBody>) {
      state.status = 'loading';
      state.error = null;
    },
    loginSucceeded(state, action: PayloadAction<SessionPayload>) {
      signInAsSelf(state, action.payload);
      state.status = 'succeeded';
    },
    loginFailed(state, action: PayloadAction<string>) {
      state.status = 'failed';
      state.error = action.payload;
    },
    registerSubmitted(state, _action: PayloadAction<RegisterBody>) {
      state.status = 'loading';
      state.error = null;
    },
    registerSucceeded(state, action: PayloadAction<SessionPayload>) {
      signInAsSelf(state, action.payload);
      state.status = 'succeeded';
    },
    registerFailed(state, action: PayloadAction<string>) {
      state.status = 'failed';
      state.error = action.payload;
    },
    /** A form was opened: forget the outcome of an earlier submit. */
    authFormOpened(state) {
      state.status = 'idle';
      state.error = null;
    },
    sessionVerifyRequested(state) {
      // A refresh while signed in keeps the page; only a first check shows the loader.
      if (!state.user) state.session = 'checking';
    },
    sessionVerified(state, action: PayloadAction<SessionUser>) {
      state.user = action.payload;
      state.session = 'verified';
    },
    sessionVerifyFailed(state) {
      state.token = null;
      state.user = null;
      state.session = 'failed';
      state.impersonator = null;
    },
    /** A server answer said the session is over (blocked, revoked): signed out where the user stands. */
    sessionEnded(state) {
      state.token = null;
      state.user = null;
      state.session = 'failed';
      state.impersonator = null;
    },
    /**
     * Login As: the admin now acts as the user. The admin's own session is
     * kept (only the first time: signing in as another user from a user
     * session is not possible, but a repeat must not overwrite the admin).
     */
    impersonationStarted(state, action: PayloadAction<SessionPayload>) {
      if (!state.impersonator && state.token && state.user) {
        state.impersonator = { token: state.token, user: state.user };
      }
      signIn(state, action.payload);
    },
    /** Back to admin: the kept admin session becomes the session again. */
    impersonationEnded(state) {
      if (!state.impersonator) return;
      signIn(state, state.impersonator);
      state.impersonator = null;
    },
    /** A new token and user arrived from another flow (referral apply, account update). */
    sessionRefreshed(state, action: PayloadAction<SessionPayload>) {
      signIn(state, action.payload);
    },
    referralApplySubmitted(state, _action: PayloadAction<string>) {
      state.referral = { status: 'loading', error: null };
    },
    referralApplySucceeded(state) {
      state.referral = { status: 'succeeded', error: null };
    },
    referralApplyFailed(state, action: PayloadAction<string>) {
      state.referral = { status: 'failed', error: action.payload };
    },
    referralFormOpened(state) {
      state.referral = { status: 'idle', error: null };
    },
    /** The register page (with an invite code) and onboarding state the referral bonus terms. */
    referralTermsRequested() {},
    referralTermsLoaded(state, action: PayloadAction<ReferralBonusTerms | null>) {
      state.referralTerms = action.payload;
    },
    logoutRequested(state) {
      state.impersonator = null;
      state.token = null;
      state.user = null;
      state.error = null;
      state.status = 'idle';
      state.session = 'unknown';
    },
  },
});

export const {
  loginSubmitted,
  loginSucceeded,
  loginFailed,
  registerSubmitted,
  registerSucceeded,
  registerFailed,
  authFormOpened,
  sessionVerifyRequested,
  sessionVerified,
  sessionVerifyFailed,
  sessionEnded,
  sessionRefreshed,
  impersonationStarted,
  impersonationEnded,
  referralApplySubmitted,
  referralApplySucceeded,
  referralApplyFailed,
  referralFormOpened,
  referralTermsLoaded,
  referralTermsRequested,
  logoutRequested,
} = authSlice.actions;

export const authReducer = authSlice.reducer;
