import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap, type Patient, type PatientPatch } from '../../../api/client';
import { afterPatientWrite, queryKeys } from '../../../api/queryKeys';

/** 4xx answers (not found, not allowed) are final; a server failure is retried once. */
const retryServerErrors = (failureCount: number, error: unknown) =>
  !(error instanceof ApiError && error.status < 500) && failureCount < 1;

export function fetchPatients(q: string): Promise<Patient[]> {
  const query = q.trim() ? { q: q.trim() } : {};
  return unwrap(api.GET('/api/patients', { params: { query } }));
}

export const patientsQueryOptions = (q: string) =>
  queryOptions({
    queryKey: queryKeys.patientList(q.trim()),
    queryFn: () => fetchPatients(q),
    retry: retryServerErrors,
  });

export function usePatients(q: string) {
  return useQuery(patientsQueryOptions(q));
}

export function fetchPatient(id: string): Promise<Patient> {
  return unwrap(api.GET('/api/patients/{id}', { params: { path: { id } } }));
}

export const patientQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.patient(id), queryFn: () => fetchPatient(id), retry: retryServerErrors });

export function usePatient(id: string) {
  return useQuery(patientQueryOptions(id));
}

export interface UpdatePatientInput {
  id: string;
  body: PatientPatch;
}

export function updatePatient({ id, body }: UpdatePatientInput): Promise<Patient> {
  return unwrap(api.PATCH('/api/patients/{id}', { params: { path: { id } }, body }));
}

export function useUpdatePatient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePatient,
    onSuccess: (patient) => {
      queryClient.setQueryData(queryKeys.patient(patient.id), patient);
      for (const queryKey of afterPatientWrite) {
        void queryClient.invalidateQueries({
          queryKey,
          // The fresh patient is already in the cache; refetch the lists and figures around it.
          predicate: (query) => query.queryKey[1] !== 'detail',
        });
      }
    },
  });
}
