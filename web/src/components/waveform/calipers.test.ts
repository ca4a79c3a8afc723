import { describe, expect, it } from 'vitest';
import {
  caliperAt,
  caliperFrame,
  caliperKey,
  caliperReading,
  edgeNear,
  marchOut,
  mvAt,
  pointAt,
  snapTime,
  timeAt,
  xAt,
  yAt,
  type Caliper,
} from './calipers';

const standard = { speedMmPerS: 25, gainMmPerMv: 10 };

function caliper(aT: number, bT: number, aMv = 0, bMv = 0): Caliper {
  return { row: 0, a: { t: aT, mv: aMv }, b: { t: bT, mv: bMv }, active: 'b' };
}

describe('caliper frame', () => {
  it('turns 100 px at 25 mm/s and 4 px/mm into 1000 ms, which is 60 bpm', () => {
    const frame = caliperFrame(0, 4, standard, 1);
    // The trace starts after the 10 mm margin: 40 px.
    expect(frame.traceX).toBe(40);
    expect(timeAt(frame, 40)).toBe(0);
    expect(timeAt(frame, 140)).toBe(1);
    const reading = caliperReading(caliper(timeAt(frame, 40), timeAt(frame, 140)));
    expect(reading).toEqual({ ms: 1000, bpm: 60, mv: 0 });
  });

  it('halves the time per pixel at 50 mm/s and follows the page start', () => {
    const frame = caliperFrame(12, 4, { speedMmPerS: 50, gainMmPerMv: 10 }, 1);
    // 15 mm margin = 60 px; 200 px/s.
    expect(frame.traceX).toBe(60);
    expect(timeAt(frame, 160)).toBe(12.5);
    expect(xAt(frame, 12.5)).toBe(160);
  });

  it('reads millivolts from the row baseline at the gain, and back', () => {
    // 3 px/mm at 10 mm/mV: 30 px per mV, rows of 90 px, baseline 54 px from the row's top.
    const frame = caliperFrame(0, 3, standard, 4);
    expect(mvAt(frame, 54)).toEqual({ row: 0, mv: 0 });
    expect(mvAt(frame, 24)).toEqual({ row: 0, mv: 1 });
    expect(mvAt(frame, 90 + 54 + 15)).toEqual({ row: 1, mv: -0.5 });
    expect(yAt(frame, 1, -0.5)).toBe(159);
    // Beyond the last row the point stays on it.
    expect(mvAt(frame, 1000).row).toBe(3);
    // At 20 mm/mV the same 30 px are half a millivolt.
    const tall = caliperFrame(0, 3, { speedMmPerS: 25, gainMmPerMv: 20 }, 4);
    expect(mvAt(tall, tall.baseline - 30).mv).toBe(0.5);
  });

  it('rounds a point under the pointer to the millisecond and the hundredth of a millivolt', () => {
    const frame = caliperFrame(0, 3, standard, 1);
    // x = 30 + 13.3 px: 13.3 / 75 s = 177.33 ms.
    expect(pointAt(frame, 43.3, 54 - 10)).toEqual({ row: 0, point: { t: 0.177, mv: 0.33 } });
  });
});

describe('caliper reading', () => {
  it('gives the interval in whole ms, the rate it equals and the amplitude between the ends', () => {
    expect(caliperReading(caliper(2.0, 2.176, 0.1, 1.35))).toEqual({ ms: 176, bpm: 341, mv: 1.25 });
    // The ends may be either way round.
    expect(caliperReading(caliper(3.8, 3.0, 0.5, -0.25))).toEqual({ ms: 800, bpm: 75, mv: 0.75 });
    // No width, no rate.
    expect(caliperReading(caliper(1, 1))).toEqual({ ms: 0, bpm: null, mv: 0 });
  });
});

describe('march-out', () => {
  it('ticks at each multiple of the interval across the view, not on the ends', () => {
    expect(marchOut(caliper(2, 2.8), 0, 10)).toEqual([0.4, 1.2, 3.6, 4.4, 5.2, 6, 6.8, 7.6, 8.4, 9.2, 10]);
    expect(marchOut(caliper(2.8, 2), 2, 4)).toEqual([3.6]);
  });

  it('does not march out an interval under 100 ms', () => {
    expect(marchOut(caliper(2, 2.05), 0, 10)).toEqual([]);
  });
});

describe('caliper keys', () => {
  const centre = { t: 5, row: 1 };

  it('lays a 1 s caliper at the centre with Enter, its later end active', () => {
    expect(caliperKey(null, 'Enter', false, centre)).toEqual({
      row: 1,
      a: { t: 4.5, mv: 0 },
      b: { t: 5.5, mv: 0 },
      active: 'b',
    });
    expect(caliperAt(5, 1)).toEqual(caliperKey(null, 'Enter', false, centre));
    // Without a caliper the other keys are the viewer's.
    expect(caliperKey(null, 'ArrowLeft', false, centre)).toBeUndefined();
    expect(caliperKey(null, 'Escape', false, centre)).toBeUndefined();
  });

  it('moves the active end 4 ms (40 with Shift) across and 0.05 mV (0.5) up and down', () => {
    let c = caliperAt(5, 1);
    c = caliperKey(c, 'ArrowRight', false, centre) as Caliper;
    c = caliperKey(c, 'ArrowRight', false, centre) as Caliper;
    expect(c.b.t).toBe(5.508);
    c = caliperKey(c, 'ArrowLeft', true, centre) as Caliper;
    expect(c.b.t).toBe(5.468);
    c = caliperKey(c, 'ArrowUp', false, centre) as Caliper;
    c = caliperKey(c, 'ArrowUp', false, centre) as Caliper;
    c = caliperKey(c, 'ArrowUp', false, centre) as Caliper;
    expect(c.b.mv).toBe(0.15);
    c = caliperKey(c, 'ArrowDown', true, centre) as Caliper;
    expect(c.b.mv).toBe(-0.35);
    expect(c.a).toEqual({ t: 4.5, mv: 0 });
    expect(caliperReading(c)).toEqual({ ms: 968, bpm: 62, mv: 0.35 });
  });

  it('switches the active end with E, Space or Enter, and Escape removes the caliper', () => {
    const c = caliperAt(5, 1);
    const switched = caliperKey(c, 'e', false, centre) as Caliper;
    expect(switched.active).toBe('a');
    expect((caliperKey(switched, ' ', false, centre) as Caliper).active).toBe('b');
    expect((caliperKey(switched, 'Enter', false, centre) as Caliper).active).toBe('b');
    const moved = caliperKey(switched, 'ArrowLeft', false, centre) as Caliper;
    expect(moved.a.t).toBe(4.496);
    expect(moved.b.t).toBe(5.5);
    expect(caliperKey(c, 'Escape', false, centre)).toBeNull();
    // Tab is left alone, so focus can leave the paper.
    expect(caliperKey(c, 'Tab', false, centre)).toBeUndefined();
  });
});

describe('grabbing an end', () => {
  it('finds the nearer end within 10 px on the caliper row only', () => {
    const frame = caliperFrame(0, 4, standard, 3);
    const c: Caliper = { ...caliper(1, 2), row: 1 };
    // Ends at x = 140 and 240.
    expect(edgeNear(frame, c, 146, 1)).toBe('a');
    expect(edgeNear(frame, c, 232, 1)).toBe('b');
    expect(edgeNear(frame, c, 190, 1)).toBeNull();
    expect(edgeNear(frame, c, 140, 0)).toBeNull();
    expect(edgeNear(frame, null, 140, 1)).toBeNull();
  });
});

describe('snapping to fiducial lines', () => {
  it('takes a line within 2 mm and leaves an edge 2.1 mm away where it was dropped', () => {
    // 25 mm/s: 2 mm is 80 ms, whatever the zoom.
    const frame = caliperFrame(0, 4, standard, 1);
    const lines = [2.3, 2.46];
    expect(snapTime(frame, 2.37, lines)).toBe(2.3);
    expect(snapTime(frame, 2.22, lines)).toBe(2.3);
    expect(snapTime(frame, 2.216, lines)).toBe(2.216);
    expect(snapTime(frame, 2.544, lines)).toBe(2.544);
    // Between two lines, the nearer.
    expect(snapTime(frame, 2.39, lines)).toBe(2.46);
    expect(snapTime(frame, 2.37, [])).toBe(2.37);
  });

  it('reads the PR exactly when a caliper is laid from near P onset to near QRS onset', () => {
    // 50 mm/s at 3 px/mm: 2 mm is 40 ms.
    const frame = caliperFrame(2, 3, { speedMmPerS: 50, gainMmPerMv: 10 }, 1);
    const lines = [2.3, 2.46];
    expect(snapTime(frame, 2.339, lines)).toBe(2.3);
    expect(snapTime(frame, 2.342, lines)).toBe(2.342);
    const a = { t: snapTime(frame, 2.32, lines), mv: 0 };
    const b = { t: snapTime(frame, 2.45, lines), mv: 0 };
    expect(caliperReading({ row: 0, a, b, active: 'b' }).ms).toBe(160);
  });
});
