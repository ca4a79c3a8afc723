import { describe, expect, it } from 'vitest';
import { caliperFrame } from './calipers';
import { fiducialLines, leadKey, leadTicks, type Ecg12Marks, type GlobalBeat } from './fiducials';
import { layoutRows, STANDARD_LEADS } from './paperLayout';
import { twelveLeadIndices } from './geometry';

const standard = { speedMmPerS: 25, gainMmPerMv: 10 };

/** Seconds to the millisecond, as the server sends them. */
const ms = (t: number) => Math.round(t * 1000) / 1000;

function beat(r: number): GlobalBeat {
  return { r_s: r, p_on: ms(r - 0.2), qrs_on: ms(r - 0.04), qrs_off: ms(r + 0.05), t_off: ms(r + 0.4) };
}

const none = { p_peak: null, r_peak: null, t_on: null, t_peak: null };
function leadBeat(r: number) {
  return {
    ...none,
    p_on: ms(r - 0.18),
    p_off: ms(r - 0.08),
    qrs_on: ms(r - 0.03),
    qrs_off: ms(r + 0.04),
    t_on: ms(r + 0.2),
    t_off: ms(r + 0.38),
  };
}

describe('global fiducial lines', () => {
  it('are placed at the trace margin plus (t - from) x speed x zoom', () => {
    // Page from 2 s at 25 mm/s and 4 px/mm: the trace starts at 10 mm = 40 px, 100 px per second.
    const frame = caliperFrame(2, 4, standard, 4);
    const lines = fiducialLines([beat(2.5), beat(3.3)], frame, 10);
    expect(lines.slice(0, 4)).toEqual([
      { kind: 'p_on', t: 2.3, x: 70 },
      { kind: 'qrs_on', t: 2.46, x: 86 },
      { kind: 'qrs_off', t: 2.55, x: 95 },
      { kind: 't_off', t: 2.9, x: 130 },
    ]);
    expect(lines).toHaveLength(8);
    // At 50 mm/s the trace starts at 15 mm and a second is twice as wide.
    const fast = caliperFrame(2, 4, { speedMmPerS: 50, gainMmPerMv: 10 }, 4);
    expect(fiducialLines([beat(2.5)], fast, 5)[1]).toEqual({ kind: 'qrs_on', t: 2.46, x: 60 + 92 });
  });

  it('leave out what falls before or after the page and the fiducials not found', () => {
    const frame = caliperFrame(2, 3, standard, 1);
    const early = { r_s: 2.1, p_on: 1.9, qrs_on: 2.06, qrs_off: null, t_off: 2.5 };
    const lines = fiducialLines([early, beat(4.3)], frame, 2.5);
    expect(lines.map((l) => `${l.kind}@${l.t}`)).toEqual([
      'qrs_on@2.06',
      't_off@2.5',
      'p_on@4.1',
      'qrs_on@4.26',
      'qrs_off@4.35',
    ]);
  });
});

describe('lead marks', () => {
  const twelve = twelveLeadIndices(STANDARD_LEADS);
  const names = [...STANDARD_LEADS];
  const marks: Ecg12Marks['lead_marks'] = STANDARD_LEADS.map((name) => ({
    name,
    beats: [0.35, 1.15, 1.95, 2.75, 3.55, 4.35].map(leadBeat),
  }));

  it('are ticked only inside the segment that shows their lead', () => {
    // 3 x 4 page from 0: aVR is row 0, 2.5-5 s.
    const rows = layoutRows('twelve', names, 1, 0, 10, twelve);
    const frame = caliperFrame(0, 4, standard, rows.length);
    const ticks = leadTicks(marks, rows, names, frame);
    const avr = ticks.filter((tick) => tick.lead === 'aVR');
    expect(avr.length).toBeGreaterThan(0);
    expect(avr.every((tick) => tick.row === 0 && tick.t >= 2.5 && tick.t < 5)).toBe(true);
    // Its first tick: the beat at 2.75 s begins its P at 2.57 s, x = 40 + 257 px.
    expect(avr[0]).toEqual({ row: 0, lead: 'aVR', kind: 'p_on', t: 2.57, x: 297 });
    // Lead I: row 0, 0-2.5 s only (its beat at 2.75 s is aVR's time on that row).
    const first = ticks.filter((tick) => tick.lead === 'I');
    expect(first.every((tick) => tick.row === 0 && tick.t < 2.5)).toBe(true);
    expect(first.map((tick) => tick.t)).not.toContain(2.57);
    // The rhythm strip (row 3) shows lead II over the whole page.
    const strip = ticks.filter((tick) => tick.row === 3);
    expect(new Set(strip.map((tick) => tick.lead))).toEqual(new Set(['II']));
    expect(strip.some((tick) => tick.t > 4)).toBe(true);
  });

  it('match a channel spelt another way', () => {
    expect(leadKey('Lead aVR')).toBe(leadKey('avr'));
    const rows = layoutRows('leads', ['lead II'], 0, 0, 2, null);
    const frame = caliperFrame(0, 3, standard, rows.length);
    const ticks = leadTicks(marks, rows, ['lead II'], frame);
    // 0-2 s holds the whole beats at 0.35 and 1.15 s (6 boundaries each) and 4 of the one at 1.95.
    expect(ticks.map((tick) => tick.lead)).toEqual(Array(16).fill('II'));
    expect(ticks.at(-1)).toMatchObject({ kind: 'qrs_off', t: 1.99, x: 30 + 149.25 });
  });
});
