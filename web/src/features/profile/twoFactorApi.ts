/** Two-factor sign-in from the profile: start enrolment, confirm it, turn it off. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';
import type { components } from '../../api/generated/schema';

export type TotpSetup = components['schemas']['TotpSetup'];

export function startTotpSetup(): Promise<TotpSetup> {
  return unwrap(api.POST('/api/auth/totp/setup'));
}

export function useStartTotpSetup() {
  return useMutation({ mutationFn: startTotpSetup });
}

export async function enableTotp(code: string): Promise<string[]> {
  const answer = await unwrap(api.POST('/api/auth/totp/enable', { body: { code } }));
  return answer.recoveryCodes;
}

/** Confirms enrolment; the signed-in user is refetched so the profile shows "On". */
export function useEnableTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enableTotp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.me }),
  });
}

export interface TotpDisableInput {
  password: string;
  code: string;
}

export async function disableTotp(body: TotpDisableInput): Promise<void> {
  await unwrap(api.POST('/api/auth/totp/disable', { body }));
}

export function useDisableTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableTotp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.me }),
  });
}
