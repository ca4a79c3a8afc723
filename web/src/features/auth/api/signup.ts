import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type User } from '../../../api/client';
import type { components } from '../../../api/generated/schema';
import { meQueryKey } from './me';

export type SignupInput = components['schemas']['SignupRequest'];

export function signup(body: SignupInput): Promise<User> {
  return unwrap(api.POST('/api/auth/signup', { body }));
}

export function useSignup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signup,
    onSuccess: (user) => {
      queryClient.setQueryData(meQueryKey, user);
    },
  });
}
