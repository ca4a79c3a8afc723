import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type Analysis } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';

export type SignalType = 'ecg' | 'pcg' | 'ppg';

/** The signed-in user's stored signal analyses (all three types, or one), newest first. */
export function fetchAnalyses(type: SignalType | undefined): Promise<Analysis[]> {
  return unwrap(api.GET('/api/analyses', { params: { query: type ? { type } : {} } }));
}

export const analysesQueryOptions = (type: SignalType | undefined) =>
  queryOptions({
    queryKey: queryKeys.analysesOfType(type ?? 'signals'),
    queryFn: async () => {
      const all = await fetchAnalyses(type);
      // "All Tests" are the recordings: clinical-parameter results are not tests of a signal.
      return all.filter((analysis) => analysis.modality !== 'clinical');
    },
    retry: false,
  });

export function useAnalyses(type: SignalType | undefined) {
  return useQuery(analysesQueryOptions(type));
}
