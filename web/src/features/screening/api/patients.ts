import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Patient, type PatientForm } from '../../../api/client';
import { afterPatientWrite } from '../../../api/queryKeys';

export function createPatient(body: PatientForm): Promise<Patient> {
  return unwrap(api.POST('/api/patients', { body }));
}

export function useCreatePatient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPatient,
    onSuccess: () => {
      for (const queryKey of afterPatientWrite) void queryClient.invalidateQueries({ queryKey });
    },
  });
}
