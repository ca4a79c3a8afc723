import { describe, expect, it } from 'vitest';
import { resampleUniform, signalCsv } from './resample';

describe('resampleUniform', () => {
  it('interpolates irregular frames onto a uniform grid', () => {
    const out = resampleUniform([0, 0.04, 0.1, 0.1, 0.2], [0, 4, 10, 99, 20], 10);
    expect(out).toHaveLength(3);
    expect(out[0]).toBeCloseTo(0);
    expect(out[1]).toBeCloseTo(10);
    expect(out[2]).toBeCloseTo(20);
  });

  it('keeps a sine frequency when frames jitter', () => {
    const times: number[] = [];
    const values: number[] = [];
    for (let i = 0; i < 300; i += 1) {
      const time = i / 30 + (i % 3 === 0 ? 0.004 : -0.003);
      times.push(time);
      values.push(Math.sin(2 * Math.PI * 1.2 * time));
    }
    const out = resampleUniform(times, values, 30);
    let crossings = 0;
    for (let i = 1; i < out.length; i += 1) if ((out[i - 1] ?? 0) < 0 && (out[i] ?? 0) >= 0) crossings += 1;
    // 10 s at 1.2 Hz: 12 upward zero crossings (the first cycle starts at 0).
    expect(crossings).toBeGreaterThanOrEqual(11);
    expect(crossings).toBeLessThanOrEqual(12);
  });

  it('needs two samples', () => {
    expect(resampleUniform([0], [1], 30)).toEqual([]);
  });

  it('writes a CSV with a time column', () => {
    expect(signalCsv([1, 2.5], 30, 'PPG')).toBe('time,PPG\n0.0000,1.000000\n0.0333,2.500000\n');
  });
});
