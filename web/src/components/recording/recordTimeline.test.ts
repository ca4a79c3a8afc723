import { describe, expect, it } from 'vitest';
import {
  afSummary,
  binSeconds,
  centredStart,
  durationParts,
  episodeShapes,
  formatHms,
  heartRateBins,
  linearScale,
  rateRange,
  recordDetails,
  timelineKey,
  timeTicks,
  trendPath,
} from './recordTimeline';

describe('record timeline maths', () => {
  it('writes times as h:mm:ss and lengths as parts to read', () => {
    expect(formatHms(0)).toBe('0:00:00');
    expect(formatHms(1140)).toBe('0:19:00');
    expect(formatHms(3725.6)).toBe('1:02:06');
    expect(durationParts(45)).toEqual({ h: 0, m: 0, s: 45 });
    expect(durationParts(1805)).toEqual({ h: 0, m: 30, s: 5 });
    expect(durationParts(665)).toEqual({ h: 0, m: 11, s: 5 });
    // An hour or more reads in hours and minutes.
    expect(durationParts(3725)).toEqual({ h: 1, m: 2, s: 0 });
    expect(durationParts(86399)).toEqual({ h: 24, m: 0, s: 0 });
  });

  it('bins the trend 10 s at a time up to 100 min, wider beyond', () => {
    expect(binSeconds(1805)).toBe(10);
    expect(binSeconds(6000)).toBe(10);
    expect(binSeconds(6001)).toBe(30);
    expect(binSeconds(86400)).toBe(300);
  });

  it('takes the median rate of each bin and leaves a gap where beats are missing', () => {
    // 60 bpm for 0-10 s, nothing in 10-20 s, then 120 bpm with one missed beat (a 1 s RR: 60 bpm).
    const beats = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 20.5, 21, 22, 22.5, 23];
    const bins = heartRateBins(beats, 30, 10);
    expect(bins).toEqual([60, null, 120]);
    // A pause of more than 3 s is no rate.
    expect(heartRateBins([0, 5, 10, 10.5, 11], 20, 10)).toEqual([null, 120]);
    expect(rateRange(bins)).toEqual({ lo: 60, hi: 120 });
    expect(rateRange([72, 75])).toEqual({ lo: 50, hi: 90 });
    expect(rateRange([null])).toEqual({ lo: 40, hi: 120 });
  });

  it('draws one sub-path per run of rates', () => {
    const x = linearScale([0, 30], [0, 300]);
    const y = linearScale([60, 120], [100, 0]);
    expect(trendPath([60, null, 120], 10, x, y)).toBe('M50 100 L50 100 M250 0 L250 0');
    expect(trendPath([60, 90], 10, x, y)).toBe('M50 100 L50 100 L150 50');
    expect(x.invert(150)).toBe(15);
  });

  it('ticks the axis at a step that leaves room for each label', () => {
    expect(timeTicks(1805, 700)).toEqual([0, 300, 600, 900, 1200, 1500, 1800]);
    expect(timeTicks(1805, 300)).toEqual([0, 600, 1200, 1800]);
    expect(timeTicks(90, 800)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
  });

  it('places bands from start to end and ticks at the start', () => {
    const x = linearScale([0, 1805], [40, 1845]);
    const shapes = episodeShapes(
      [
        { kind: 'af', start_s: 1140, end_s: 1805 },
        { kind: 'pause', start_s: 300, end_s: 303.2 },
        { kind: 'noisy', start_s: 60, end_s: 60.5 },
      ],
      x,
    );
    expect(shapes.map(({ kind, row, x: left, width }) => ({ kind, row, left, width }))).toEqual([
      { kind: 'af', row: 'rhythm', left: 1180, width: 665 },
      { kind: 'pause', row: 'tick', left: 340, width: 0 },
      // Half a second is narrower than 2 px: widened to stay visible.
      { kind: 'noisy', row: 'rhythm', left: 100, width: 2 },
    ]);
  });

  it('moves the window by keys and centres it on a clicked time, inside the record', () => {
    expect(timelineKey('ArrowRight', 0, 10, 1805)).toBe(10);
    expect(timelineKey('ArrowLeft', 5, 10, 1805)).toBe(0);
    expect(timelineKey('End', 0, 10, 1805)).toBe(1795);
    expect(timelineKey('Home', 900, 10, 1805)).toBe(0);
    expect(timelineKey('a', 0, 10, 1805)).toBeNull();
    expect(centredStart(1140, 10, 1805)).toBe(1135);
    expect(centredStart(1803, 10, 1805)).toBe(1795);
    expect(centredStart(2, 10, 1805)).toBe(0);
  });

  it("reads a long result's details, leaving out what it cannot use", () => {
    const read = recordDetails({
      af_burden: 0.37,
      analysed_s: 1805,
      noisy_s: 30,
      episodes: [
        { kind: 'af', start_s: 1140, end_s: 1805 },
        { kind: 'pause', start_s: 300, end_s: 303 },
        { kind: 'unknown', start_s: 1, end_s: 2 },
        { kind: 'af', start_s: 20, end_s: 10 },
        { kind: 'af', start_s: 400, end_s: 430 },
      ],
    });
    expect(read.episodes).toEqual([
      { kind: 'pause', start_s: 300, end_s: 303 },
      { kind: 'af', start_s: 400, end_s: 430 },
      { kind: 'af', start_s: 1140, end_s: 1805 },
    ]);
    expect(read).toMatchObject({ afBurden: 0.37, analysedS: 1805, noisyS: 30, beatCounts: null });
    expect(afSummary(read.episodes ?? [])).toEqual({ count: 2, longestS: 665 });
    expect(recordDetails({ heart_rate_bpm: 70 })).toEqual({
      episodes: null,
      afBurden: null,
      analysedS: null,
      noisyS: null,
      beatCounts: null,
    });
    expect(recordDetails({ beat_counts: { n: 2000, s: 12, v: 3 } }).beatCounts).toEqual({ n: 2000, s: 12, v: 3 });
  });
});
