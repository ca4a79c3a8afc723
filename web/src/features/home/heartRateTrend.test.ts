import { describe, expect, it } from 'vitest';
import type { SharedResult } from '../../api/client';
import { formatDateTime, formatDay } from '../../lib/format';
import { heartRateTrend } from './heartRateTrend';

function result(id: string, modality: string, createdAt: string, heartRateBpm: number | null): SharedResult {
  return {
    id,
    modality,
    createdAt,
    finding: 'normal',
    prediction: '',
    label: 'normal',
    heartRateBpm,
    reviewed: true,
    doctorAgreed: true,
    reviewedAt: createdAt,
    doctorName: 'Ana Ruiz',
    reportUrl: `/api/shared/analyses/${id}/report.pdf`,
  } as SharedResult;
}

describe('heartRateTrend', () => {
  it('puts each source on its own series and gives points of the same day their time', () => {
    const newestFirst = [
      result('a-4', 'pcg', '2026-11-21T12:00:00Z', 80.4),
      result('a-3', 'ppg', '2026-11-20T14:30:00Z', 75.6),
      result('a-2', 'clinical', '2026-11-20T12:00:00Z', null),
      result('a-1', 'ecg', '2026-11-20T10:00:00Z', 71.6),
    ];
    const { points, sources } = heartRateTrend(newestFirst);
    expect(sources).toEqual(['ecg', 'ppg', 'pcg']);
    expect(points).toEqual([
      { at: '2026-11-20T10:00:00Z', label: formatDateTime('2026-11-20T10:00:00Z'), ecg: 72 },
      { at: '2026-11-20T14:30:00Z', label: formatDateTime('2026-11-20T14:30:00Z'), ppg: 76 },
      { at: '2026-11-21T12:00:00Z', label: formatDay('2026-11-21T12:00:00Z'), pcg: 80 },
    ]);
    expect(points[0]?.label).not.toBe(points[1]?.label);
  });
});
