import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Analysis, type CombinedResult } from '../../../api/client';
import { predictUpload } from '../../../api/predict';
import { queryKeys } from '../../../api/queryKeys';
import type { SignalKind } from '../../../lib/fileRules';
import type { Site } from '../../../lib/auscultation';

/** The analyses stored for a screening, newest first. */
export function fetchScreeningAnalyses(screeningId: string): Promise<Analysis[]> {
  return unwrap(api.GET('/api/analyses', { params: { query: { screening_id: screeningId } } }));
}

export const screeningAnalysesQueryOptions = (screeningId: string) =>
  queryOptions({
    queryKey: queryKeys.screeningAnalyses(screeningId),
    queryFn: () => fetchScreeningAnalyses(screeningId),
    retry: false,
  });

export function useScreeningAnalyses(screeningId: string) {
  return useQuery(screeningAnalysesQueryOptions(screeningId));
}

/**
 * Uploads a recording for the screening (heart sounds at an auscultation site): the server stores it
 * and runs its model. The screening is read again afterwards: its combined result (computed by the
 * server on every read, with the murmur over the sites) now includes it.
 */
export function useUploadRecording(kind: SignalKind, screeningId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, site }: { file: File; site?: Site }) => predictUpload(kind, file, { screeningId, site }),
    onSuccess: () => {
      for (const queryKey of [
        queryKeys.analyses,
        queryKeys.screenings,
        queryKeys.patients,
        queryKeys.audit,
        queryKeys.dashboard,
      ]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}

/** Combines the screening's results on the server (and completes the screening). */
export function combineScreening(screeningId: string): Promise<CombinedResult> {
  return unwrap(api.POST('/api/screenings/{id}/combine', { params: { path: { id: screeningId } } }));
}
