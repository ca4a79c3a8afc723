import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type User } from '../../../api/client';
import type { components } from '../../../api/generated/schema';
import { meQueryKey } from './me';

export type LoginInput = components['schemas']['LoginRequest'];
export type LoginResponse = components['schemas']['LoginResponse'];
export type TwoFactorChallenge = components['schemas']['TwoFactorChallenge'];

/** Whether the password step answered with a challenge (two-factor sign-in) instead of the account. */
export function isChallenge(response: LoginResponse): response is TwoFactorChallenge {
  return 'twoFactorRequired' in response && response.twoFactorRequired;
}

export function login(body: LoginInput): Promise<LoginResponse> {
  return unwrap(api.POST('/api/auth/login', { body }));
}

/** The password step; signed in at once unless the account has two-factor sign-in. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (response) => {
      if (!isChallenge(response)) queryClient.setQueryData(meQueryKey, response);
    },
  });
}

export interface LoginCodeInput {
  challenge: string;
  /** Six digits from the authenticator app, or a recovery code. */
  code: string;
}

export function loginWithCode(body: LoginCodeInput): Promise<User> {
  return unwrap(api.POST('/api/auth/login/totp', { body }));
}

/** The code step of a two-factor sign-in. */
export function useLoginWithCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: loginWithCode,
    onSuccess: (user) => {
      queryClient.setQueryData(meQueryKey, user);
    },
  });
}
