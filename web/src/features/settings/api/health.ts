import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type Health } from '../../../api/client';

export function fetchHealth(): Promise<Health> {
  return unwrap(api.GET('/api/health'));
}

export const healthQueryOptions = () =>
  queryOptions({ queryKey: ['health'], queryFn: fetchHealth, staleTime: 60 * 1000, retry: false });

export function useHealth() {
  return useQuery(healthQueryOptions());
}
