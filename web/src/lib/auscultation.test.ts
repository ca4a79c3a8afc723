import { describe, expect, it } from 'vitest';
import { isSite, murmurSpans, recordingMurmur } from './auscultation';

describe('murmurSpans', () => {
  const s1 = [0.1, 0.9, 1.7];
  const s2 = [0.4, 1.2];
  it('shades the whole of each systole for a holosystolic murmur, and none after the last S1 without its S2', () => {
    expect(murmurSpans(s1, s2, 'holosystolic')).toEqual([
      [0.1, 0.4],
      [0.9, 1.2],
    ]);
  });
  it('shades the first half for an early-systolic murmur and the middle for a mid-systolic one', () => {
    const early = murmurSpans(s1, s2, 'early-systolic');
    expect(early[0]?.[0]).toBeCloseTo(0.1);
    expect(early[0]?.[1]).toBeCloseTo(0.25);
    const mid = murmurSpans(s1, s2, 'mid-systolic');
    expect(mid[1]?.[0]).toBeCloseTo(0.975);
    expect(mid[1]?.[1]).toBeCloseTo(1.125);
  });
  it('skips an S1 whose next S2 comes after the next S1 (a missed S2), and shades nothing without a timing', () => {
    expect(murmurSpans([0.1, 0.9], [1.2], 'holosystolic')).toEqual([[0.9, 1.2]]);
    expect(murmurSpans(s1, s2, null)).toEqual([]);
    expect(murmurSpans(s1, s2, 'late')).toEqual([]);
  });
});

describe('recordingMurmur', () => {
  it('reads a result’s murmur and nothing else', () => {
    expect(
      recordingMurmur({ murmur: { verdict: 'present', probability: 0.6, timing: 'holosystolic', grade: 'I/VI' } }),
    ).toEqual({
      verdict: 'present',
      probability: 0.6,
      timing: 'holosystolic',
      grade: 'I/VI',
    });
    expect(recordingMurmur({ murmur: { verdict: 'odd' } })?.verdict).toBe('unknown');
    expect(recordingMurmur({})).toBeNull();
    expect(isSite('MV')).toBe(true);
    expect(isSite('Phc')).toBe(false);
  });
});
