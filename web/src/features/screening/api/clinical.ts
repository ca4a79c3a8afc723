import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ClinicalForm, type ClinicalRecord } from '../../../api/client';
import { afterPatientWrite, queryKeys } from '../../../api/queryKeys';

export interface SaveClinicalInput {
  patientId: string;
  body: ClinicalForm;
}

export function saveClinical({ patientId, body }: SaveClinicalInput): Promise<ClinicalRecord> {
  return unwrap(api.POST('/api/patients/{id}/clinical', { params: { path: { id: patientId } }, body }));
}

export function useSaveClinical() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveClinical,
    onSuccess: (record) => {
      if (record.screeningId) void queryClient.invalidateQueries({ queryKey: queryKeys.screening(record.screeningId) });
      for (const queryKey of afterPatientWrite) void queryClient.invalidateQueries({ queryKey });
    },
  });
}
