import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Analysis, type ClinicalRecord, type Screening } from '../../../api/client';
import { afterPatientWrite, queryKeys } from '../../../api/queryKeys';

export function fetchClinicalHistory(patientId: string): Promise<ClinicalRecord[]> {
  return unwrap(api.GET('/api/patients/{id}/clinical', { params: { path: { id: patientId } } }));
}

export const clinicalHistoryQueryOptions = (patientId: string) =>
  queryOptions({
    queryKey: queryKeys.patientClinical(patientId),
    queryFn: () => fetchClinicalHistory(patientId),
    retry: false,
  });

export function useClinicalHistory(patientId: string) {
  return useQuery(clinicalHistoryQueryOptions(patientId));
}

export function fetchPatientScreenings(patientId: string): Promise<Screening[]> {
  return unwrap(api.GET('/api/patients/{id}/screenings', { params: { path: { id: patientId } } }));
}

export const patientScreeningsQueryOptions = (patientId: string) =>
  queryOptions({
    queryKey: queryKeys.patientScreenings(patientId),
    queryFn: () => fetchPatientScreenings(patientId),
    retry: false,
  });

export function usePatientScreenings(patientId: string) {
  return useQuery(patientScreeningsQueryOptions(patientId));
}

/** "Run Diagnostics": starts a screening for one patient. */
export function startScreening(patientId: string): Promise<Screening> {
  return unwrap(api.POST('/api/screenings', { body: { patient_id: patientId } }));
}

export function useStartScreening() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startScreening,
    onSuccess: (screening) => {
      queryClient.setQueryData(queryKeys.screening(screening.id), screening);
      for (const queryKey of afterPatientWrite) void queryClient.invalidateQueries({ queryKey });
    },
  });
}

/** The patient's stored analyses (all models), newest first. */
export function fetchPatientAnalyses(patientId: string): Promise<Analysis[]> {
  return unwrap(api.GET('/api/analyses', { params: { query: { patient_id: patientId } } }));
}

export const patientAnalysesQueryOptions = (patientId: string) =>
  queryOptions({
    queryKey: queryKeys.patientAnalyses(patientId),
    queryFn: () => fetchPatientAnalyses(patientId),
    retry: false,
  });

export function usePatientAnalyses(patientId: string) {
  return useQuery(patientAnalysesQueryOptions(patientId));
}
