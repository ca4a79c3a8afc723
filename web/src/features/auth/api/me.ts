import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError, unwrap, type User } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';
import { isIdleSignOut, rememberIdleSignOut } from '../../../lib/signedOut';

export const meQueryKey = queryKeys.me;

/** The signed-in user, or `null` when signed out (a 401 from /me is an answer, not an error). */
export async function fetchMe(): Promise<User | null> {
  try {
    return await unwrap(api.GET('/api/auth/me'));
  } catch (error) {
    if (isIdleSignOut(error)) rememberIdleSignOut();
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const meQueryOptions = () =>
  queryOptions({
    queryKey: meQueryKey,
    queryFn: fetchMe,
    staleTime: 5 * 60 * 1000,
    retry: (failureCount, error) => !(error instanceof ApiError && error.status < 500) && failureCount < 1,
  });

export function useMe() {
  return useQuery(meQueryOptions());
}
