import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ModelSummary } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** The loaded models and their validated figures (public). */
export function fetchModels(): Promise<ModelSummary[]> {
  return unwrap(api.GET('/api/models'));
}

export const modelsQueryOptions = queryOptions({
  queryKey: queryKeys.models,
  queryFn: fetchModels,
  staleTime: 5 * 60 * 1000,
});

export function useModels() {
  return useQuery(modelsQueryOptions);
}
