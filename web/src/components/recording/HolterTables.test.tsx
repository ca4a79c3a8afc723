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

  it('counts the beats of each class with their share and the ectopic patterns of S and V', () => {
    const details = {
      beat_counts: { n: 2140, s: 12, v: 48 },
      ectopy: {
        v_isolated: 30,
        v_couplets: 3,
        v_runs: 2,
        s_isolated: 9,
        s_couplets: 0,
        s_runs: 1,
        v_bigeminy: 1,
        v_trigeminy: 2,
      },
    };

    render(<HolterTables details={details} />);

    const section = screen.getByTestId('holter-beats');
    expect(within(section).getByRole('heading', { name: 'Beats' })).toBeTruthy();
    const [classes, ectopy] = within(section).getAllByRole('table');
    expect(rows(classes as HTMLElement)).toEqual([
      'N normal | 2,140 | 97.3%',
      'S supraventricular ectopic | 12 | 0.5%',
      'V ventricular ectopic | 48 | 2.2%',
    ]);
    expect(rows(ectopy as HTMLElement)).toEqual([
      'Isolated | 9 | 30',
      'Couplets | 0 | 3',
      'Runs (3 beats or more) | 1 | 2',
      'Bigeminy | — | 1',
      'Trigeminy | — | 2',
    ]);
    expect(screen.queryByTestId('holter-figures')).toBeNull();
  });

  it('shows no beats table without the three counts, and the counts alone without ectopy', () => {
    expect(holterFigures({ beat_counts: null, ectopy: { v_runs: 1 } }).beats).toBeNull();
    expect(holterFigures({ beat_counts: { n: 10, s: 1 } }).beats).toBeNull();
    expect(holterFigures({ beat_counts: { n: 10, s: 1, v: 0 } }).beats).toEqual({
      counts: { n: 10, s: 1, v: 0 },
      ectopy: null,
    });

    const { container } = render(<HolterTables details={{ beat_counts: null }} />);
    expect(container.innerHTML).toBe('');
  });
});
