import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { meQueryKey } from './me';

export async function logout(): Promise<void> {
  await unwrap(api.POST('/api/auth/logout'));
}

/**
 * Signs out. `onSignedOut` runs first (navigate away from the protected pages), then every cached
 * server answer is dropped so nothing of this user stays in memory.
 */
export function useLogout({ onSignedOut }: { onSignedOut?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => {
      onSignedOut?.();
      queryClient.clear();
      queryClient.setQueryData(meQueryKey, null);
    },
  });
}
