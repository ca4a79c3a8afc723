/** The doctor's share of a patient record with the patient's own account. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Share, type ShareState } from '../../../api/client';

const shareKey = (patientId: string) => ['sharing', 'patient', patientId] as const;

/** How a patient record is shared (`GET /api/patients/{id}/share`). */
export function usePatientShare(patientId: string) {
  return useQuery({
    queryKey: shareKey(patientId),
    queryFn: (): Promise<ShareState> =>
      unwrap(api.GET('/api/patients/{id}/share', { params: { path: { id: patientId } } })),
    retry: false,
  });
}

/** Invites an address, or changes what is shared. */
export function useSharePatient(patientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; share_all: boolean }): Promise<Share> =>
      unwrap(api.POST('/api/patients/{id}/share', { params: { path: { id: patientId } }, body })),
    onSuccess: (share) => queryClient.setQueryData<ShareState>(shareKey(patientId), { current: share }),
  });
}

/** Ends the sharing of a record. */
export function useRevokeShare(patientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await unwrap(api.DELETE('/api/patients/{id}/share', { params: { path: { id: patientId } } }));
    },
    onSuccess: () => queryClient.setQueryData<ShareState>(shareKey(patientId), { current: null }),
  });
}
