import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap, type Screening } from '../../../api/client';
import { afterPatientWrite, queryKeys } from '../../../api/queryKeys';

export function fetchScreening(id: string): Promise<Screening> {
  return unwrap(api.GET('/api/screenings/{id}', { params: { path: { id } } }));
}

export const screeningQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.screening(id),
    queryFn: () => fetchScreening(id),
    retry: (failureCount, error) => !(error instanceof ApiError && error.status < 500) && failureCount < 1,
  });

/** The screening named in the URL; disabled (pending, never fetched) without an id. */
export function useScreening(id: string | null) {
  return useQuery({ ...screeningQueryOptions(id ?? ''), enabled: Boolean(id) });
}

export function createScreening(patientId: string): Promise<Screening> {
  return unwrap(api.POST('/api/screenings', { body: { patient_id: patientId } }));
}

export function useCreateScreening() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createScreening,
    onSuccess: (screening) => {
      queryClient.setQueryData(queryKeys.screening(screening.id), screening);
      for (const queryKey of afterPatientWrite) void queryClient.invalidateQueries({ queryKey });
    },
  });
}
