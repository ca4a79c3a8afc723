import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type User } from '../../../api/client';
import type { components } from '../../../api/generated/schema';
import { meQueryKey } from './me';

export type LoginInput = components['schemas']['LoginRequest'];

export function login(body: LoginInput): Promise<User> {
  return unwrap(api.POST('/api/auth/login', { body }));
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (user) => {
      queryClient.setQueryData(meQueryKey, user);
    },
  });
}
