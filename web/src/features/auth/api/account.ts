/** Email verification and password reset: the links' server calls. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { meQueryKey } from './me';

export async function requestPasswordReset(email: string): Promise<void> {
  await unwrap(api.POST('/api/auth/password-reset/request', { body: { email } }));
}

/** Asks for a reset link; the server answers the same whether or not the account exists. */
export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}

export interface PasswordResetInput {
  token: string;
  newPassword: string;
}

export async function resetPassword({ token, newPassword }: PasswordResetInput): Promise<void> {
  await unwrap(api.POST('/api/auth/password-reset', { body: { token, new_password: newPassword } }));
}

/** Sets the new password; every session of the account ends, so nobody is signed in afterwards. */
export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetPassword,
    onSuccess: () => {
      queryClient.clear();
      queryClient.setQueryData(meQueryKey, null);
    },
  });
}

export async function verifyEmail(token: string): Promise<void> {
  await unwrap(api.POST('/api/auth/verify-email', { body: { token } }));
}

/** Verifies the email of the link's account; a signed-in user's badge updates. */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyEmail,
    onSuccess: async () => {
      // The page's first /me may still be in flight with the answer from before the verification,
      // and a refetch would join it rather than ask again: drop it, then ask.
      await queryClient.cancelQueries({ queryKey: meQueryKey });
      await queryClient.invalidateQueries({ queryKey: meQueryKey });
    },
  });
}
