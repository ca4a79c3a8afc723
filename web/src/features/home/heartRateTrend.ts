/** The points of a patient's heart-rate chart: one series per kind of recording the rate comes from. */
import type { SharedResult } from '../../api/client';
import { formatDateTime, formatDay } from '../../lib/format';

/** The recordings a heart rate is measured from, in the legend's order. */
export const TREND_SOURCES = ['ecg', 'ppg', 'pcg'] as const;
export type TrendSource = (typeof TREND_SOURCES)[number];

/** One result on the chart: when, its axis label, and its rate (bpm) under its source's key. */
export type TrendPoint = { at: string; label: string } & Partial<Record<TrendSource, number>>;

function isSource(modality: string): modality is TrendSource {
  return (TREND_SOURCES as readonly string[]).includes(modality);
}

/**
 * The results that carry a heart rate, oldest first, and the sources present. A point is labelled with
 * its day, or with its day and time where another point falls on the same day.
 */
export function heartRateTrend(results: readonly SharedResult[]): { points: TrendPoint[]; sources: TrendSource[] } {
  const rated = results
    .filter((r) => r.heartRateBpm != null && isSource(r.modality))
    .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  const perDay = new Map<string, number>();
  for (const r of rated) perDay.set(formatDay(r.createdAt), (perDay.get(formatDay(r.createdAt)) ?? 0) + 1);
  const points = rated.map((r) => {
    const day = formatDay(r.createdAt);
    const label = (perDay.get(day) ?? 0) > 1 ? formatDateTime(r.createdAt) : day;
    return { at: r.createdAt, label, [r.modality]: Math.round(r.heartRateBpm ?? 0) } as TrendPoint;
  });
  const sources = TREND_SOURCES.filter((source) => rated.some((r) => r.modality === source));
  return { points, sources };
}
