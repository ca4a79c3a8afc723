/**
 * The maths of the ECG calipers, free of the DOM: pixels on the paper to time and millivolts (and
 * back) for a page's speed, gain and zoom, what a caliper reads (interval in ms, the rate it
 * equals, the amplitude between its two points), where its march-out ticks fall, and how the
 * keyboard moves it, and how an edge snaps to a fiducial line near it. A caliper is held in
 * seconds and millivolts, never pixels, so it stays on the same waves when the zoom, speed, gain or
 * layout change.
 */
import { calibrationMarginMm, type PaperSettings } from './geometry';
import { rowMetrics } from './paperLayout';

/** How paper pixels map to time and millivolts on one page. */
export interface CaliperFrame {
  /** Time at the trace's left edge, seconds. */
  from: number;
  /** Where the trace starts, pixels from the paper's left edge. */
  traceX: number;
  pxPerMm: number;
  pxPerS: number;
  pxPerMv: number;
  rowHeight: number;
  /** The baseline, pixels from a row's top. */
  baseline: number;
  rows: number;
}

export function caliperFrame(from: number, pxPerMm: number, paper: PaperSettings, rows: number): CaliperFrame {
  const row = rowMetrics(pxPerMm, paper);
  return {
    from,
    traceX: calibrationMarginMm(paper.speedMmPerS) * pxPerMm,
    pxPerMm,
    pxPerS: paper.speedMmPerS * pxPerMm,
    pxPerMv: paper.gainMmPerMv * pxPerMm,
    rowHeight: row.height,
    baseline: row.baseline,
    rows,
  };
}

/** The time, seconds, at `x` pixels. */
export function timeAt(frame: CaliperFrame, x: number): number {
  return frame.from + (x - frame.traceX) / frame.pxPerS;
}

/** The x position, pixels, of time `t`. */
export function xAt(frame: CaliperFrame, t: number): number {
  return frame.traceX + (t - frame.from) * frame.pxPerS;
}

/** The row under `y` pixels and the millivolts there, above that row's baseline. */
export function mvAt(frame: CaliperFrame, y: number): { row: number; mv: number } {
  const row = Math.min(Math.max(0, Math.floor(y / frame.rowHeight)), Math.max(0, frame.rows - 1));
  return { row, mv: (row * frame.rowHeight + frame.baseline - y) / frame.pxPerMv };
}

/** The y position, pixels, of `mv` millivolts in `row`. */
export function yAt(frame: CaliperFrame, row: number, mv: number): number {
  return row * frame.rowHeight + frame.baseline - mv * frame.pxPerMv;
}

export type Edge = 'a' | 'b';
/** One end of a caliper: a time (seconds in the recording) and a level (mV above the baseline). */
export interface CaliperPoint {
  t: number;
  mv: number;
}
/** A caliper laid on `row`: its two ends, and the one the keyboard moves. */
export interface Caliper {
  row: number;
  a: CaliperPoint;
  b: CaliperPoint;
  active: Edge;
}

/** Rounds to the millisecond (times) or the microvolt (levels). */
const thousandth = (value: number) => Math.round(value * 1000) / 1000;

/** The point under (`x`, `y`) pixels, to the millisecond and the hundredth of a millivolt. */
export function pointAt(frame: CaliperFrame, x: number, y: number): { row: number; point: CaliperPoint } {
  const { row, mv } = mvAt(frame, y);
  return { row, point: { t: thousandth(timeAt(frame, x)), mv: Math.round(mv * 100) / 100 } };
}

/** What a caliper reads: the interval (ms), the rate it equals (bpm; null for none) and the amplitude (mV). */
export interface CaliperReading {
  ms: number;
  bpm: number | null;
  mv: number;
}

export function caliperReading(caliper: Caliper): CaliperReading {
  const ms = Math.round(Math.abs(caliper.b.t - caliper.a.t) * 1000);
  return {
    ms,
    bpm: ms > 0 ? Math.round(60000 / ms) : null,
    mv: Math.round(Math.abs(caliper.b.mv - caliper.a.mv) * 100) / 100,
  };
}

/** The shortest interval marched out, seconds (a narrower one would fill the strip with ticks). */
export const MARCH_MIN_S = 0.1;

/**
 * March-out: the times in [`from`, `to`] at whole multiples of the caliper's interval from its
 * earlier end, other than its two ends, for judging whether a rhythm is regular.
 */
export function marchOut(caliper: Caliper, from: number, to: number): number[] {
  const start = Math.min(caliper.a.t, caliper.b.t);
  const interval = Math.abs(caliper.b.t - caliper.a.t);
  if (interval < MARCH_MIN_S) return [];
  const ticks: number[] = [];
  const first = Math.ceil((from - start) / interval - 1e-9);
  const last = Math.floor((to - start) / interval + 1e-9);
  for (let k = first; k <= last; k += 1) {
    if (k !== 0 && k !== 1) ticks.push(Math.round((start + k * interval) * 1e6) / 1e6);
  }
  return ticks;
}

/** A new caliper's width, seconds (it reads 1000 ms, 60 bpm, until moved). */
export const NEW_CALIPER_S = 1;
/** Keyboard steps: 4 ms (40 ms with Shift) across, 0.05 mV (0.5 mV with Shift) up and down. */
export const STEP_S = 0.004;
export const BIG_STEP_S = 0.04;
export const STEP_MV = 0.05;
export const BIG_STEP_MV = 0.5;

/** A caliper centred on `t`, on `row`, its later end active. */
export function caliperAt(t: number, row: number): Caliper {
  return {
    row,
    a: { t: thousandth(t - NEW_CALIPER_S / 2), mv: 0 },
    b: { t: thousandth(t + NEW_CALIPER_S / 2), mv: 0 },
    active: 'b',
  };
}

function moveActive(caliper: Caliper, dt: number, dmv: number): Caliper {
  const edge = caliper[caliper.active];
  return { ...caliper, [caliper.active]: { t: thousandth(edge.t + dt), mv: thousandth(edge.mv + dmv) } };
}

/**
 * The caliper after a key press, or `undefined` when the key is not the caliper's (the viewer then
 * scrolls or zooms with it). Enter lays a caliper at `centre` (the view's middle) or, once there
 * is one, switches the active end, as E and Space do; Left and Right move the active end 4 ms (40
 * with Shift), Up and Down 0.05 mV (0.5); Escape removes it.
 */
export function caliperKey(
  caliper: Caliper | null,
  key: string,
  shift: boolean,
  centre: { t: number; row: number },
): Caliper | null | undefined {
  if (!caliper) return key === 'Enter' ? caliperAt(centre.t, centre.row) : undefined;
  const step = shift ? BIG_STEP_S : STEP_S;
  const stepMv = shift ? BIG_STEP_MV : STEP_MV;
  switch (key) {
    case 'Enter':
    case ' ':
    case 'e':
    case 'E':
      return { ...caliper, active: caliper.active === 'a' ? 'b' : 'a' };
    case 'ArrowLeft':
      return moveActive(caliper, -step, 0);
    case 'ArrowRight':
      return moveActive(caliper, step, 0);
    case 'ArrowUp':
      return moveActive(caliper, 0, stepMv);
    case 'ArrowDown':
      return moveActive(caliper, 0, -stepMv);
    case 'Escape':
      return null;
    default:
      return undefined;
  }
}

/** The end of `caliper` within `tolerance` pixels of `x` on `row` (the nearer one), if any. */
export function edgeNear(
  frame: CaliperFrame,
  caliper: Caliper | null,
  x: number,
  row: number,
  tolerance = 10,
): Edge | null {
  if (!caliper || caliper.row !== row) return null;
  const da = Math.abs(xAt(frame, caliper.a.t) - x);
  const db = Math.abs(xAt(frame, caliper.b.t) - x);
  if (Math.min(da, db) > tolerance) return null;
  return da <= db ? 'a' : 'b';
}

/** An edge dropped or dragged this close to a fiducial line (millimetres on the paper) snaps to it. */
export const SNAP_MM = 2;

/**
 * `t`, or the nearest of `targets` (seconds) when it lies within [`SNAP_MM`] of `t` on the paper
 * of `frame` (so laying a caliper from a P onset line to a QRS onset line reads the PR exactly).
 */
export function snapTime(frame: CaliperFrame, t: number, targets: readonly number[]): number {
  const tolerance = (SNAP_MM * frame.pxPerMm) / frame.pxPerS;
  let best = t;
  let distance = Infinity;
  for (const target of targets) {
    const d = Math.abs(target - t);
    if (d <= tolerance + 1e-9 && d < distance) {
      best = target;
      distance = d;
    }
  }
  return best;
}
