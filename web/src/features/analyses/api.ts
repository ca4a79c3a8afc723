import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type Analysis } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';

/** One of the signed-in user's stored analyses. */
export function useAnalysis(id: string) {
  return useQuery({
    queryKey: queryKeys.analysis(id),
    queryFn: (): Promise<Analysis> => unwrap(api.GET('/api/analyses/{id}', { params: { path: { id } } })),
    retry: false,
  });
}
