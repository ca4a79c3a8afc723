import { act, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import i18n from '../../i18n';
import { HolterTables, holterFigures } from './HolterTables';

/** What a long result's details give (MIT-BIH 100 read whole, rounded). */
const DETAILS = {
  heart_rate_summary: { min_bpm: 73.5, min_at_s: 1260, mean_bpm: 75.5, max_bpm: 80, max_at_s: 420 },
  hrv: { sdnn_ms: 36.4, sdann_ms: 16.5, sdnn_index_ms: 32.2, rmssd_ms: 28, pnn50_percent: 6.4, segments: 6 },
  hourly: [
    { start_s: 0, end_s: 3600, beats: 4520, mean_bpm: 75.4, min_bpm: 70.2, max_bpm: 81, analysed_s: 3600 },
    { start_s: 3600, end_s: 5405.6, beats: 2270, mean_bpm: null, min_bpm: null, max_bpm: null, analysed_s: 0 },
  ],
};

/** The table's body rows as "header | cell | cell ...". */
function rows(section: HTMLElement): string[] {
  return within(section)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      [within(row).getByRole('rowheader'), ...within(row).getAllByRole('cell')]
        .map((cell) => cell.textContent)
        .join(' | '),
    );
}

afterEach(async () => {
  await act(() => i18n.changeLanguage('en'));
});

describe('HolterTables', () => {
  it('shows the heart rate with its times, the HRV and one row per hour', () => {
    render(<HolterTables details={DETAILS} />);

    expect(rows(screen.getByTestId('holter-figures'))).toEqual([
      'Minimum heart rate | 74 bpm | 0:21:00',
      'Mean heart rate | 76 bpm | ',
      'Maximum heart rate | 80 bpm | 0:07:00',
      'SDNN | 36.4 ms | ',
      'SDANN | 16.5 ms | ',
      'SDNN index | 32.2 ms | ',
      'RMSSD | 28 ms | ',
      'pNN50 | 6.4 % | ',
    ]);
    expect(screen.getByText(/HRV from 6 5-min segments/)).toBeTruthy();
    expect(rows(screen.getByTestId('holter-hourly'))).toEqual([
      '0:00:00 – 1:00:00 | 4,520 | 75 | 70 | 81',
      '1:00:00 – 1:30:06 | 2,270 | — | — | —',
    ]);
    expect(screen.getByRole('heading', { name: 'Hour by hour' })).toBeTruthy();
  });

  it('reads in French and leaves out an SDANN the result does not give', async () => {
    await act(() => i18n.changeLanguage('fr'));
    const details = { ...DETAILS, hrv: { ...DETAILS.hrv, sdann_ms: null, segments: 1 } };

    render(<HolterTables details={details} />);

    const figures = rows(screen.getByTestId('holter-figures'));
    expect(figures[0]).toBe('Fréquence cardiaque minimale | 74 bpm | 0:21:00');
    expect(figures[4]).toBe('SDANN | — | ');
    expect(screen.getByRole('heading', { name: 'Heure par heure' })).toBeTruthy();
  });

  it('draws nothing for a result without these details and skips malformed rows', () => {
    const { container } = render(<HolterTables details={{ heart_rate_bpm: 72 }} />);
    expect(container.innerHTML).toBe('');

    const parsed = holterFigures({
      heart_rate_summary: { min_bpm: 60 },
      hrv: null,
      hourly: [{ start_s: 10, end_s: 5 }, 'x', { start_s: 0, end_s: 60 }],
    });
    expect(parsed.heartRate).toBeNull();
    expect(parsed.hrv).toBeNull();
    expect(parsed.hourly).toEqual([{ startS: 0, endS: 60, beats: null, meanBpm: null, minBpm: null, maxBpm: null }]);
  });
});
