import { describe, expect, it } from 'vitest';
import { ECG_ZOOM_PX_PER_MM, PAPER_GAINS, PAPER_SPEEDS, twelveLeadIndices } from './geometry';
import {
  boxesOverlap,
  ECG_LAYOUTS,
  labelBox,
  layoutRows,
  layoutSpan,
  paperSize,
  rowMetrics,
  rowPulse,
  STANDARD_PAGE_S,
} from './paperLayout';

/** Twelve leads stored in an unusual order, so that a layout must look each one up by name. */
const NAMES = ['V6', 'V5', 'V4', 'V3', 'V2', 'V1', 'aVF', 'aVL', 'aVR', 'III', 'II', 'I'];
const TWELVE = twelveLeadIndices(NAMES);
const ANALYSED = 10; // II

const labels = (layout: (typeof ECG_LAYOUTS)[number]) =>
  layoutRows(layout, NAMES, ANALYSED, 20, 10, TWELVE).map((row) => row.segments.map((s) => s.label));

describe('ECG layouts', () => {
  it('puts the twelve leads one per row, I to V6, over the same 10 s in 12 x 1', () => {
    const rows = layoutRows('twelveByOne', NAMES, ANALYSED, 20, 10, TWELVE);
    expect(rows.map((row) => row.segments.map((s) => s.label))).toEqual(
      ['I', 'II', 'III', 'aVR', 'aVL', 'aVF', 'V1', 'V2', 'V3', 'V4', 'V5', 'V6'].map((lead) => [lead]),
    );
    expect(rows.map((row) => row.segments[0]?.channel)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(rows.every((row) => row.segments[0]?.from === 20 && row.segments[0].to === 30)).toBe(true);
  });

  it('puts the limb leads in the first 5 s and the chest leads in the next 5 s in 6 x 2', () => {
    const rows = layoutRows('sixByTwo', NAMES, ANALYSED, 20, 10, TWELVE);
    expect(labels('sixByTwo')).toEqual([
      ['I', 'V1'],
      ['II', 'V2'],
      ['III', 'V3'],
      ['aVR', 'V4'],
      ['aVL', 'V5'],
      ['aVF', 'V6'],
    ]);
    expect(rows[0]?.segments.map((s) => [s.from, s.to, s.channel])).toEqual([
      [20, 25, 11],
      [25, 30, 5],
    ]);
  });

  it('keeps the 3 x 4 layout with the analysed lead as a 10 s rhythm strip', () => {
    expect(labels('twelve')).toEqual([
      ['I', 'aVR', 'V1', 'V4'],
      ['II', 'aVL', 'V2', 'V5'],
      ['III', 'aVF', 'V3', 'V6'],
      ['II'],
    ]);
    const rhythm = layoutRows('twelve', NAMES, ANALYSED, 20, 10, TWELVE)[3]?.segments[0];
    expect(rhythm).toEqual({ from: 20, to: 30, channel: 10, label: 'II' });
  });

  it('stacks every channel as stored, and falls back to that without the standard leads', () => {
    expect(labels('leads').map((row) => row[0])).toEqual(NAMES);
    const rows = layoutRows('twelveByOne', ['MLII', 'V5'], 0, 0, 7.6, null);
    expect(rows.map((row) => row.segments)).toEqual([
      [{ from: 0, to: 7.6, channel: 0, label: 'MLII' }],
      [{ from: 0, to: 7.6, channel: 1, label: 'V5' }],
    ]);
  });

  it('shows a 10 s page in the standard layouts and what fits the screen for every channel', () => {
    expect(STANDARD_PAGE_S).toBe(10);
    expect(layoutSpan('twelve', TWELVE, 7.6)).toBe(10);
    expect(layoutSpan('sixByTwo', TWELVE, 7.6)).toBe(10);
    expect(layoutSpan('twelveByOne', TWELVE, 7.6)).toBe(10);
    expect(layoutSpan('leads', TWELVE, 7.6)).toBe(7.6);
    expect(layoutSpan('twelve', null, 7.6)).toBe(7.6);
  });
});

describe('paper size', () => {
  it('makes a row 3 mV tall at the gain with the baseline 1.8 mV from its top', () => {
    expect(rowMetrics(3, { speedMmPerS: 25, gainMmPerMv: 10 })).toEqual({ height: 90, baseline: 54 });
    expect(rowMetrics(2, { speedMmPerS: 25, gainMmPerMv: 5 })).toEqual({ height: 30, baseline: 18 });
    expect(rowMetrics(2, { speedMmPerS: 50, gainMmPerMv: 20 })).toEqual({ height: 120, baseline: 72 });
  });

  it('is the margin plus the span at the speed wide, the rows tall', () => {
    // 10 s at 25 mm/s = 250 mm + 10 mm margin; 4 rows of 30 mm.
    expect(paperSize(10, 4, 3, { speedMmPerS: 25, gainMmPerMv: 10 })).toEqual({ width: 780, height: 360 });
    // At 50 mm/s: 500 mm + 15 mm; at 20 mm/mV rows are 60 mm.
    expect(paperSize(10, 4, 3, { speedMmPerS: 50, gainMmPerMv: 20 })).toEqual({ width: 1545, height: 720 });
  });
});

describe('lead labels', () => {
  it('never overlap a calibration pulse, and stay inside their row, in every layout, speed, gain and zoom', () => {
    let checked = 0;
    for (const layout of ECG_LAYOUTS) {
      for (const speedMmPerS of PAPER_SPEEDS) {
        for (const gainMmPerMv of PAPER_GAINS) {
          for (const pxPerMm of [...ECG_ZOOM_PX_PER_MM, 3.78]) {
            const paper = { speedMmPerS, gainMmPerMv };
            const pxPerS = speedMmPerS * pxPerMm;
            const rows = layoutRows(layout, NAMES, ANALYSED, 0, 10, TWELVE);
            const { height } = rowMetrics(pxPerMm, paper);
            const pulses = rows.map((_, r) => rowPulse(r * height, pxPerMm, paper).box);
            rows.forEach((row, r) => {
              const top = r * height;
              const pulse = pulses[r];
              expect(pulse).toBeDefined();
              if (!pulse) return;
              // The pulse itself sits inside its row.
              expect(pulse.y).toBeGreaterThanOrEqual(top);
              expect(pulse.y + pulse.height).toBeLessThanOrEqual(top + height);
              for (const segment of row.segments) {
                const label = labelBox(top, segment.from * pxPerS, pxPerMm, paper);
                for (const other of pulses) expect(boxesOverlap(label, other)).toBe(false);
                expect(label.x).toBeGreaterThan(pulse.x + pulse.width);
                expect(label.y).toBeGreaterThanOrEqual(top);
                expect(label.y + label.height).toBeLessThanOrEqual(top + height);
                checked += 1;
              }
            });
          }
        }
      }
    }
    // The layouts' segments (3 x 4 + the rhythm strip, 6 x 2, 12 x 1, 12 stacked) x 2 speeds x 3 gains x 6 zooms.
    expect(checked).toBe((13 + 12 + 12 + 12) * 2 * 3 * 6);
  });

  it('tells overlapping boxes from boxes that only touch', () => {
    const a = { x: 0, y: 0, width: 10, height: 10 };
    expect(boxesOverlap(a, { x: 9, y: 9, width: 5, height: 5 })).toBe(true);
    expect(boxesOverlap(a, { x: 10, y: 0, width: 5, height: 5 })).toBe(false);
    expect(boxesOverlap(a, { x: 0, y: 10, width: 5, height: 5 })).toBe(false);
  });
});
