/**
 * Where things go on the ECG paper, free of the DOM: which lead each row and segment shows in each
 * layout (3 x 4 with a rhythm strip, 6 x 2, 12 x 1, every channel stacked), how tall a row is at a
 * gain, and the boxes of each row's calibration pulse and lead labels (a label sits right of the
 * pulse, at the top of its segment, so that the two never overlap).
 */
import {
  calibrationMarginMm,
  calibrationPulse,
  CALIBRATION_X_MM,
  type PaperSettings,
  TWELVE_LEAD_COLUMNS,
  TWELVE_LEAD_SEGMENT_S,
} from './geometry';

/**
 * The layouts: `twelve` is 3 x 4 (2.5 s each) with a 10 s rhythm strip, `sixByTwo` the limb leads
 * then the chest leads (5 s each), `twelveByOne` the twelve leads over the same 10 s, `leads` every
 * channel over what fits the screen.
 */
export type EcgLayout = 'twelve' | 'sixByTwo' | 'twelveByOne' | 'leads';
/** The layouts offered when the record has the twelve standard leads, in the order shown. */
export const ECG_LAYOUTS: readonly EcgLayout[] = ['twelve', 'sixByTwo', 'twelveByOne', 'leads'];
/** Seconds on one page of the standard layouts. */
export const STANDARD_PAGE_S = TWELVE_LEAD_SEGMENT_S * TWELVE_LEAD_COLUMNS.length;

/** The twelve standard leads in their usual order, I to V6. */
export const STANDARD_LEADS = TWELVE_LEAD_COLUMNS.flat();

/** A row's height is this many millivolts at the paper's gain (±1.5 mV around the baseline). */
export const ROW_MV = 3;
/** Where the baseline sits, millivolts from the row's top (R waves point up). */
export const BASELINE_MV = 1.8;

/** One stretch of a row: a lead over a time range, seconds. */
export interface Segment {
  from: number;
  to: number;
  channel: number;
  label: string;
}
export interface Row {
  segments: Segment[];
}

/** The span of a page in `layout`: 10 s for the standard layouts, `fitted` for every channel. */
export function layoutSpan(layout: EcgLayout, twelve: number[][] | null, fitted: number): number {
  return layout !== 'leads' && twelve ? STANDARD_PAGE_S : fitted;
}

/**
 * The rows of `layout` for a page starting at `from` of `span` seconds. `twelve` holds the channel
 * of each standard lead (`twelveLeadIndices`); without it every layout stacks the channels.
 */
export function layoutRows(
  layout: EcgLayout,
  names: readonly string[],
  analysed: number,
  from: number,
  span: number,
  twelve: number[][] | null,
): Row[] {
  const whole = (channel: number, label: string): Row => ({
    segments: [{ from, to: from + span, channel, label }],
  });
  if (twelve && layout === 'twelve') {
    const rows: Row[] = [0, 1, 2].map((r) => ({
      segments: TWELVE_LEAD_COLUMNS.map((column, c) => ({
        from: from + c * TWELVE_LEAD_SEGMENT_S,
        to: from + (c + 1) * TWELVE_LEAD_SEGMENT_S,
        channel: twelve[c]?.[r] ?? 0,
        label: column[r] ?? '',
      })),
    }));
    // The rhythm strip: the analysed lead across the whole page.
    rows.push(whole(analysed, names[analysed] ?? ''));
    return rows;
  }
  const standard = twelve?.flat() ?? [];
  if (twelve && layout === 'sixByTwo') {
    const half = span / 2;
    return [0, 1, 2, 3, 4, 5].map((r) => ({
      segments: [0, 1].map((c) => ({
        from: from + c * half,
        to: from + (c + 1) * half,
        channel: standard[c * 6 + r] ?? 0,
        label: STANDARD_LEADS[c * 6 + r] ?? '',
      })),
    }));
  }
  if (twelve && layout === 'twelveByOne') {
    return STANDARD_LEADS.map((label, i) => whole(standard[i] ?? 0, label));
  }
  return names.map((name, i) => whole(i, name));
}

/** A rectangle in pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function boxesOverlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** A row's height and baseline, pixels, at the paper's gain. */
export function rowMetrics(pxPerMm: number, paper: PaperSettings) {
  const pxPerMv = paper.gainMmPerMv * pxPerMm;
  return { height: ROW_MV * pxPerMv, baseline: BASELINE_MV * pxPerMv };
}

/** The pixel size of a page of `rows` rows and `span` seconds. */
export function paperSize(span: number, rows: number, pxPerMm: number, paper: PaperSettings) {
  return {
    width: Math.round((calibrationMarginMm(paper.speedMmPerS) + span * paper.speedMmPerS) * pxPerMm),
    height: Math.round(rows * rowMetrics(pxPerMm, paper).height),
  };
}

/** The calibration pulse of the row whose top is at `top`, and the box around it. */
export function rowPulse(top: number, pxPerMm: number, paper: PaperSettings) {
  const points = calibrationPulse(
    CALIBRATION_X_MM * pxPerMm,
    top + rowMetrics(pxPerMm, paper).baseline,
    pxPerMm,
    paper,
  );
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  const box = {
    x: Math.min(...xs),
    y: Math.min(...ys),
    width: Math.max(...xs) - Math.min(...xs),
    height: Math.max(...ys) - Math.min(...ys),
  };
  return { points, box };
}

/** The size of a lead label's font, pixels, at `pxPerMm`. */
export function ecgLabelFontPx(pxPerMm: number): number {
  return Math.max(10, Math.round(pxPerMm * 3.5));
}

/** The widest a label is drawn, in ems of its font (canvas squeezes a longer name to fit). */
const LABEL_EMS = 4;

/**
 * The box of the label of a segment that starts `segmentX` pixels right of the trace's start, in
 * the row whose top is at `top` (text drawn from its top-left corner, at most `width` wide): 1 mm
 * right of where the trace starts, so right of the calibration pulse, and 1 mm below the row's top.
 */
export function labelBox(top: number, segmentX: number, pxPerMm: number, paper: PaperSettings): Box {
  const font = ecgLabelFontPx(pxPerMm);
  return {
    x: (calibrationMarginMm(paper.speedMmPerS) + 1) * pxPerMm + segmentX,
    y: top + pxPerMm,
    width: font * LABEL_EMS,
    height: font,
  };
}
