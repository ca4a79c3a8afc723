import { describe, expect, it } from 'vitest';
import {
  CALIBRATION_MARGIN_MM,
  calibrationMarginMm,
  calibrationPulse,
  clampStart,
  clock,
  ecgVisibleSeconds,
  gridLines,
  marksInView,
  minMaxColumns,
  twelveLeadIndices,
} from './geometry';

describe('minMaxColumns', () => {
  it('keeps a one-sample spike that plain subsampling would drop', () => {
    const samples = Array.from({ length: 1000 }, (_, i) => (i === 503 ? 2.5 : 0));
    const columns = minMaxColumns(samples, 0, 1000, 10);
    expect(columns).toHaveLength(10);
    expect(columns[5]).toEqual({ min: 0, max: 2.5 });
    expect(columns.filter((c) => c?.max === 2.5)).toHaveLength(1);
    expect(columns[0]).toEqual({ min: 0, max: 0 });
  });

  it('reads only the visible range and marks all-missing columns as gaps', () => {
    const samples: (number | null)[] = [1, 2, null, null, 5, 6, 7, 8];
    expect(minMaxColumns(samples, 0, 4, 2)).toEqual([{ min: 1, max: 2 }, null]);
    expect(minMaxColumns(samples, 4, 8, 2)).toEqual([
      { min: 5, max: 6 },
      { min: 7, max: 8 },
    ]);
    // A range beyond the data gives gaps, not an error.
    expect(minMaxColumns(samples, 20, 30, 3)).toEqual([null, null, null]);
  });

  it('gives every pixel a column when there are fewer samples than pixels', () => {
    const columns = minMaxColumns([0, 1, 2], 0, 3, 6);
    expect(columns).toHaveLength(6);
    expect(columns.every((c) => c !== null)).toBe(true);
  });
});

describe('ECG paper', () => {
  it('has a line every millimetre and a major line every fifth', () => {
    const lines = gridLines(30, 3);
    expect(lines).toHaveLength(11);
    expect(lines.filter((l) => l.major).map((l) => l.at)).toEqual([0, 15, 30]);
  });

  it('draws the calibration pulse 1 mV (10 mm) high and 200 ms (5 mm) wide', () => {
    const points = calibrationPulse(6, 100, 3);
    const ys = points.map(([, y]) => y);
    expect(Math.max(...ys) - Math.min(...ys)).toBe(30);
    const top = points.filter(([, y]) => y === 70).map(([x]) => x);
    expect(Math.max(...top) - Math.min(...top)).toBe(15);
  });

  it('fits 25 mm per second after the calibration margin', () => {
    // 800 px at 4 px/mm = 200 mm; minus 10 mm = 190 mm = 7.6 s.
    expect(ecgVisibleSeconds(800, 4)).toBeCloseTo(7.6, 10);
  });

  it('fits half as many seconds at 50 mm/s, after a margin wide enough for the wider pulse', () => {
    expect(CALIBRATION_MARGIN_MM).toBe(10);
    expect(calibrationMarginMm(25)).toBe(10);
    expect(calibrationMarginMm(50)).toBe(15);
    // 200 mm minus 15 mm = 185 mm = 3.7 s at 50 mm/s.
    expect(ecgVisibleSeconds(800, 4, 50)).toBeCloseTo(3.7, 10);
  });

  it('draws the calibration pulse 1 mV high at the gain and 200 ms wide at the speed', () => {
    const size = (gainMmPerMv: number, speedMmPerS: number) => {
      const points = calibrationPulse(6, 100, 3, { gainMmPerMv, speedMmPerS });
      const ys = points.map(([, y]) => y);
      const top = points.filter(([, y]) => y === Math.min(...ys)).map(([x]) => x);
      return { height: Math.max(...ys) - Math.min(...ys), width: Math.max(...top) - Math.min(...top) };
    };
    // 3 px/mm: 5, 10 and 20 mm high; 5 mm wide at 25 mm/s, 10 mm at 50.
    expect(size(5, 25)).toEqual({ height: 15, width: 15 });
    expect(size(10, 25)).toEqual({ height: 30, width: 15 });
    expect(size(20, 25)).toEqual({ height: 60, width: 15 });
    expect(size(10, 50)).toEqual({ height: 30, width: 30 });
  });

  it('finds the twelve standard leads whatever their case or a "lead" prefix', () => {
    const names = ['i', 'II', 'III', 'AVR', 'aVL', 'avf', 'V1', 'V2', 'V3', 'V4', 'V5', 'Lead V6'];
    expect(twelveLeadIndices(names)).toEqual([
      [0, 1, 2],
      [3, 4, 5],
      [6, 7, 8],
      [9, 10, 11],
    ]);
    expect(twelveLeadIndices(['MLII', 'V5'])).toBeNull();
    expect(twelveLeadIndices(names.slice(0, 11))).toBeNull();
  });
});

describe('scrolling', () => {
  it('keeps the window inside the recording', () => {
    expect(clampStart(-4, 10, 30)).toBe(0);
    expect(clampStart(25, 10, 30)).toBe(20);
    expect(clampStart(5, 10, 8)).toBe(0);
    expect(clampStart(Number.NaN, 10, 30)).toBe(0);
  });

  it('keeps the marks in view and prints positions as m:ss.s', () => {
    expect(marksInView([0.4, 1.2, 2.0, 2.8], 1, 2.8)).toEqual([1.2, 2.0]);
    expect(clock(0)).toBe('0:00.0');
    expect(clock(75.26)).toBe('1:15.3');
    expect(clock(1800)).toBe('30:00.0');
  });
});
