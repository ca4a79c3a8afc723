import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type AuditEntry, type Dashboard } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** Home's figures; `since` is the start of the doctor's day (local midnight, ms since the epoch). */
export function fetchDashboard(since: number): Promise<Dashboard> {
  return unwrap(api.GET('/api/dashboard', { params: { query: { since } } }));
}

export const dashboardQueryOptions = (since: number) =>
  queryOptions({ queryKey: queryKeys.dashboardSince(since), queryFn: () => fetchDashboard(since), retry: false });

export function useDashboard(since: number, enabled = true) {
  return useQuery({ ...dashboardQueryOptions(since), enabled });
}

/** The signed-in user's own audit trail, newest first. */
export function fetchRecentActivity(limit: number): Promise<AuditEntry[]> {
  return unwrap(api.GET('/api/audit', { params: { query: { limit } } }));
}

export const recentActivityQueryOptions = (limit: number) =>
  queryOptions({ queryKey: queryKeys.auditRecent(limit), queryFn: () => fetchRecentActivity(limit), retry: false });

export function useRecentActivity(limit: number, enabled = true) {
  return useQuery({ ...recentActivityQueryOptions(limit), enabled });
}
