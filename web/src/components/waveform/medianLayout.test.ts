import { describe, expect, it } from 'vitest';
import { medianLayout, type MedianView } from './medianLayout';

const LEADS = ['I', 'II', 'III', 'aVR', 'aVL', 'aVF', 'V1', 'V2', 'V3', 'V4', 'V5', 'V6'];

function median(leads: string[]): MedianView {
  return {
    sampling_rate_hz: 100,
    leads: leads.map((name) => ({ name, samples: [0, 0.5, 1, null, null, 0, 0.25, 0, 0, 0] })),
    p_on_s: 0.02,
    qrs_on_s: 0.04,
    qrs_off_s: 0.06,
    t_off_s: null,
  };
}

describe('median panel layout', () => {
  it('puts the twelve leads three to a column, one beat wide at the speed and 3 mV high at the gain', () => {
    // 10 samples at 100 Hz = 0.1 s: 2.5 mm at 25 mm/s, 10 px at 4 px/mm; 3 mV at 10 mm/mV = 120 px.
    const layout = medianLayout(median(LEADS), 4, { speedMmPerS: 25, gainMmPerMv: 10 });
    expect(layout.width).toBe(40);
    expect(layout.height).toBe(360);
    expect(layout.cells.map((c) => `${c.lead}@${c.x},${c.y}`)).toEqual([
      'I@0,0',
      'II@0,120',
      'III@0,240',
      'aVR@10,0',
      'aVL@10,120',
      'aVF@10,240',
      'V1@20,0',
      'V2@20,120',
      'V3@20,240',
      'V4@30,0',
      'V5@30,120',
      'V6@30,240',
    ]);
    // The baseline 1.8 mV below the top (72 px); 1 mV is 40 px up; a gap breaks the trace.
    expect(layout.cells[0]?.paths).toEqual(['0,72 1,52 2,32', '5,72 6,62 7,72 8,72 9,72']);
    // The fiducials found, at their time across the cell; T end not found, not drawn.
    expect(layout.fiducials).toEqual([
      { kind: 'p_on', t: 0.02, dx: 2 },
      { kind: 'qrs_on', t: 0.04, dx: 4 },
      { kind: 'qrs_off', t: 0.06, dx: 6 },
    ]);
  });

  it('follows the speed and gain, and a record with fewer leads', () => {
    const layout = medianLayout(median(['I', 'II', 'III', 'aVR']), 2, { speedMmPerS: 50, gainMmPerMv: 20 });
    // 0.1 s at 50 mm/s = 5 mm = 10 px; 3 mV at 20 mm/mV = 60 mm = 120 px.
    expect(layout.width).toBe(20);
    expect(layout.height).toBe(360);
    expect(layout.cells[3]).toMatchObject({ lead: 'aVR', x: 10, y: 0, width: 10, height: 120 });
    expect(layout.fiducials[1]).toEqual({ kind: 'qrs_on', t: 0.04, dx: 4 });
  });
});
