/** A patient account's invitations and the results doctors shared with it. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Invitation, type SharedResult } from '../../../api/client';

const keys = {
  invitations: ['sharing', 'invitations'] as const,
  results: ['sharing', 'results'] as const,
};

/** Open invitations to the signed-in patient account. */
export function useInvitations() {
  return useQuery({
    queryKey: keys.invitations,
    queryFn: (): Promise<Invitation[]> => unwrap(api.GET('/api/shared/invitations')),
    retry: false,
  });
}

/** Accepts an invitation; the shared results are read again. */
export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await unwrap(api.POST('/api/shared/invitations/{id}/accept', { params: { path: { id } } }));
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: keys.invitations });
      void queryClient.invalidateQueries({ queryKey: keys.results });
    },
  });
}

/** Sends the signed-in account another link that verifies its email address. */
export function useResendVerification() {
  return useMutation({
    mutationFn: async () => {
      await unwrap(api.POST('/api/auth/verify-email/request'));
    },
  });
}

/** What doctors shared with the signed-in patient account, newest first. */
export function useSharedResults() {
  return useQuery({
    queryKey: keys.results,
    queryFn: (): Promise<SharedResult[]> => unwrap(api.GET('/api/shared/results')),
    retry: false,
  });
}
