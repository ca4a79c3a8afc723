/**
 * The arithmetic of the waveform viewers, kept free of the DOM so that it is tested on its own:
 * ECG paper (25 or 50 mm/s, 5, 10 or 20 mm/mV, 1 mm and 5 mm grid), min/max decimation of the
 * visible samples to one pair per pixel column, the standard 12-lead arrangement, and which marks
 * fall in view.
 */

/** Standard paper speed, millimetres per second (the default of the speed choice). */
export const PAPER_SPEED_MM_PER_S = 25;
/** Standard gain, millimetres per millivolt (the default of the gain choice). */
export const GAIN_MM_PER_MV = 10;
/** The paper speeds offered, millimetres per second. */
export const PAPER_SPEEDS = [25, 50] as const;
/** The gains offered, millimetres per millivolt. */
export const PAPER_GAINS = [5, 10, 20] as const;

/** How the paper runs: its speed and its gain. */
export interface PaperSettings {
  speedMmPerS: number;
  gainMmPerMv: number;
}
/** 25 mm/s and 10 mm/mV, as printed 12-lead reports. */
export const STANDARD_PAPER: PaperSettings = { speedMmPerS: PAPER_SPEED_MM_PER_S, gainMmPerMv: GAIN_MM_PER_MV };

/** The calibration pulse: 1 mV high, 200 ms wide, drawn at the start of each row. */
export const CALIBRATION_MV = 1;
export const CALIBRATION_S = 0.2;
/** Where each row's calibration pulse starts, millimetres from the paper's left edge. */
export const CALIBRATION_X_MM = 2;

/**
 * Room at the left of each row for the calibration pulse, millimetres: the pulse (1 mm flat, 200 ms,
 * 1 mm flat) after `CALIBRATION_X_MM`, and 1 mm before the trace. 10 mm at 25 mm/s, 15 mm at 50.
 */
export function calibrationMarginMm(speedMmPerS: number = PAPER_SPEED_MM_PER_S): number {
  return CALIBRATION_X_MM + 2 + CALIBRATION_S * speedMmPerS + 1;
}
/** The margin at the standard speed. */
export const CALIBRATION_MARGIN_MM = calibrationMarginMm();
/** Zoom levels of the ECG paper, pixels per millimetre (3 is the default). */
export const ECG_ZOOM_PX_PER_MM = [2, 3, 4, 6, 8] as const;
export const DEFAULT_ECG_ZOOM_INDEX = 1;

/** One pixel column's extent; `null` where every sample in the column is missing. */
export type Column = { min: number; max: number } | null;

/**
 * The samples between `fromIndex` (inclusive) and `toIndex` (exclusive), reduced to `columns`
 * min/max pairs (each column covers an equal share of the range). Drawing a vertical line per
 * column shows every spike that a plain subsampling would miss, and costs the same for 10 s or
 * 30 min.
 */
export function minMaxColumns(
  samples: readonly (number | null)[],
  fromIndex: number,
  toIndex: number,
  columns: number,
): Column[] {
  const out: Column[] = [];
  const from = Math.max(0, Math.floor(fromIndex));
  const to = Math.min(samples.length, Math.ceil(toIndex));
  const count = Math.max(0, Math.floor(columns));
  if (to <= from || count === 0) return Array.from({ length: count }, () => null);
  const perColumn = (to - from) / count;
  for (let c = 0; c < count; c += 1) {
    const start = from + Math.floor(c * perColumn);
    const end = Math.max(start + 1, Math.min(to, from + Math.floor((c + 1) * perColumn)));
    let min = Infinity;
    let max = -Infinity;
    for (let i = start; i < end; i += 1) {
      const value = samples[i];
      if (value === null || value === undefined || !Number.isFinite(value)) continue;
      if (value < min) min = value;
      if (value > max) max = value;
    }
    out.push(min === Infinity ? null : { min, max });
  }
  return out;
}

/** Seconds of ECG that fit in `widthPx` pixels at `pxPerMm` and `speedMmPerS` after the calibration margin. */
export function ecgVisibleSeconds(
  widthPx: number,
  pxPerMm: number,
  speedMmPerS: number = PAPER_SPEED_MM_PER_S,
): number {
  const usableMm = widthPx / pxPerMm - calibrationMarginMm(speedMmPerS);
  return Math.max(0.5, usableMm / speedMmPerS);
}

/**
 * Grid line positions in pixels, from 0 to `lengthPx`: every millimetre, `major` every fifth.
 */
export function gridLines(lengthPx: number, pxPerMm: number): { at: number; major: boolean }[] {
  const lines: { at: number; major: boolean }[] = [];
  const count = Math.floor(lengthPx / pxPerMm + 1e-9);
  for (let mm = 0; mm <= count; mm += 1) lines.push({ at: mm * pxPerMm, major: mm % 5 === 0 });
  return lines;
}

/**
 * The calibration pulse as polyline points (x, y) in pixels, starting at `x0` on the baseline
 * `y0`: 1 mm flat, up 1 mV at the paper's gain, 200 ms across at its speed, down, 1 mm flat.
 */
export function calibrationPulse(
  x0: number,
  y0: number,
  pxPerMm: number,
  paper: PaperSettings = STANDARD_PAPER,
): [number, number][] {
  const up = CALIBRATION_MV * paper.gainMmPerMv * pxPerMm;
  const wide = CALIBRATION_S * paper.speedMmPerS * pxPerMm;
  const flat = pxPerMm;
  return [
    [x0, y0],
    [x0 + flat, y0],
    [x0 + flat, y0 - up],
    [x0 + flat + wide, y0 - up],
    [x0 + flat + wide, y0],
    [x0 + 2 * flat + wide, y0],
  ];
}

/** The standard 12-lead arrangement: four columns of three leads, each a consecutive 2.5 s. */
export const TWELVE_LEAD_COLUMNS = [
  ['I', 'II', 'III'],
  ['aVR', 'aVL', 'aVF'],
  ['V1', 'V2', 'V3'],
  ['V4', 'V5', 'V6'],
] as const;
/** Seconds of each lead in the 12-lead layout (4 x 2.5 s = one 10 s strip). */
export const TWELVE_LEAD_SEGMENT_S = 2.5;

/**
 * The index of each lead of the 12-lead arrangement among `names` (compared case-insensitively,
 * ignoring spaces and a "lead" prefix), or null when any of the twelve is missing.
 */
export function twelveLeadIndices(names: readonly string[]): number[][] | null {
  const normalise = (name: string) => name.toLowerCase().replace(/\s+/g, '').replace(/^lead/, '');
  const index = new Map(names.map((name, i) => [normalise(name), i] as const));
  const columns: number[][] = [];
  for (const column of TWELVE_LEAD_COLUMNS) {
    const found: number[] = [];
    for (const lead of column) {
      const i = index.get(lead.toLowerCase());
      if (i === undefined) return null;
      found.push(i);
    }
    columns.push(found);
  }
  return columns;
}

/** The times in `[from, to)`, in order. */
export function marksInView(times: readonly number[], from: number, to: number): number[] {
  return times.filter((t) => t >= from && t < to);
}

/** A start time that keeps a window of `span` seconds inside a recording of `duration` seconds. */
export function clampStart(start: number, span: number, duration: number): number {
  const latest = Math.max(0, duration - span);
  if (!Number.isFinite(start)) return 0;
  return Math.min(Math.max(0, start), latest);
}

/** "m:ss.s" for a time in seconds (the viewer's position readout). */
export function clock(seconds: number): string {
  const safe = Math.max(0, seconds);
  const minutes = Math.floor(safe / 60);
  const rest = safe - minutes * 60;
  return `${minutes}:${rest.toFixed(1).padStart(4, '0')}`;
}
