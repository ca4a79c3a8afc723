import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type GeneratedReport, type ReportSummary } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';

/** The periods the Reports page offers. */
export const PERIODS = ['all', 'month', 'days30', 'months6'] as const;
export type Period = (typeof PERIODS)[number];

/** The start of a period, milliseconds since 1970 (undefined: the beginning), relative to `now`. */
export function periodStart(period: Period, now: Date): number | undefined {
  switch (period) {
    case 'all':
      return undefined;
    case 'month':
      return new Date(now.getFullYear(), now.getMonth(), 1).getTime();
    case 'days30':
      return now.getTime() - 30 * 24 * 3600 * 1000;
    case 'months6':
      return new Date(now.getFullYear(), now.getMonth() - 5, 1).getTime();
  }
}

/** The doctor's figures for a period (`GET /api/reports/summary`). */
export function useReportSummary(from: number | undefined) {
  return useQuery({
    queryKey: queryKeys.reportSummary(from ?? null),
    queryFn: (): Promise<ReportSummary> =>
      unwrap(api.GET('/api/reports/summary', { params: { query: from === undefined ? {} : { from } } })),
    retry: false,
  });
}

/** The address of the CSV export of the period. */
export function exportCsvUrl(from: number | undefined): string {
  return from === undefined ? '/api/analyses/export.csv' : `/api/analyses/export.csv?from=${from}`;
}

/** The address of Export All: the period's PDFs, CSV and FHIR bundles as one ZIP. */
export function exportAllUrl(from: number | undefined): string {
  return from === undefined ? '/api/reports/export.zip' : `/api/reports/export.zip?from=${from}`;
}

/** Every PDF report the doctor generated, newest first (`GET /api/reports/history`). */
export function useReportHistory() {
  return useQuery({
    queryKey: ['reports', 'history'],
    queryFn: (): Promise<GeneratedReport[]> => unwrap(api.GET('/api/reports/history')),
    retry: false,
  });
}
