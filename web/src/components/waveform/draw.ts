/**
 * Canvas drawing of the waveform viewers: ECG paper (grid, calibration pulse, traces), plain strips
 * for heart sounds and pulse, and beat marks. Only the visible window is drawn, one min/max line
 * per pixel column (see `geometry.ts`).
 */
import { gridLines, minMaxColumns, type Column, type PaperSettings } from './geometry';
import { rowPulse } from './paperLayout';

/** Colours read from the theme's CSS variables (light and dark). */
export interface Palette {
  paper: string;
  gridMinor: string;
  gridMajor: string;
  trace: string;
  text: string;
  markA: string;
  markB: string;
  /** Beat classes on the paper: normal, supraventricular and ventricular ectopic. */
  beatN: string;
  beatS: string;
  beatV: string;
}

export function readPalette(element: Element): Palette {
  const style = getComputedStyle(element);
  const pick = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    paper: pick('--ecg-paper', '#fff8f8'),
    gridMinor: pick('--ecg-grid-minor', '#f6c9cf'),
    gridMajor: pick('--ecg-grid-major', '#e58a96'),
    trace: pick('--ecg-trace', '#111111'),
    text: pick('--color-text', '#0f1b2d'),
    markA: pick('--color-accent', '#d1244f'),
    markB: pick('--color-primary', '#0b5fc7'),
    beatN: pick('--color-text-muted', '#4a5a70'),
    beatS: pick('--color-warning-text', '#7a5200'),
    beatV: pick('--color-danger-text', '#a51b1b'),
  };
}

/**
 * Sizes the canvas's backing store for the device pixel ratio and returns a context whose units are
 * CSS pixels, or null where canvas is unavailable (tests without a canvas implementation).
 */
export function prepareCanvas(
  canvas: HTMLCanvasElement,
  width: number,
  height: number,
): CanvasRenderingContext2D | null {
  const ratio = typeof window !== 'undefined' && window.devicePixelRatio > 0 ? window.devicePixelRatio : 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  let context: CanvasRenderingContext2D | null = null;
  try {
    context = canvas.getContext('2d');
  } catch {
    return null;
  }
  if (!context) return null;
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  return context;
}

/** The 1 mm / 5 mm grid over a `width` x `height` area at (`x`, `y`). */
export function drawPaper(
  context: CanvasRenderingContext2D,
  palette: Palette,
  area: { x: number; y: number; width: number; height: number },
  pxPerMm: number,
) {
  context.fillStyle = palette.paper;
  context.fillRect(area.x, area.y, area.width, area.height);
  for (const major of [false, true]) {
    context.strokeStyle = major ? palette.gridMajor : palette.gridMinor;
    context.lineWidth = major ? 1 : 0.5;
    context.beginPath();
    for (const line of gridLines(area.width, pxPerMm)) {
      if (line.major !== major) continue;
      const x = Math.round(area.x + line.at) + 0.5;
      context.moveTo(x, area.y);
      context.lineTo(x, area.y + area.height);
    }
    for (const line of gridLines(area.height, pxPerMm)) {
      if (line.major !== major) continue;
      const y = Math.round(area.y + line.at) + 0.5;
      context.moveTo(area.x, y);
      context.lineTo(area.x + area.width, y);
    }
    context.stroke();
  }
}

/** The 1 mV calibration pulse of the row whose top is at `top`, at the paper's speed and gain. */
export function drawCalibration(
  context: CanvasRenderingContext2D,
  palette: Palette,
  top: number,
  pxPerMm: number,
  paper: PaperSettings,
) {
  context.strokeStyle = palette.trace;
  context.lineWidth = 1.5;
  context.beginPath();
  rowPulse(top, pxPerMm, paper).points.forEach(([px, py], i) => {
    if (i === 0) context.moveTo(px, py);
    else context.lineTo(px, py);
  });
  context.stroke();
}

/**
 * One trace: `columns` min/max pairs from `x0`, one per pixel, `toY` turning a value into a y
 * position. Gaps (null columns) break the line.
 */
export function drawColumns(
  context: CanvasRenderingContext2D,
  columns: Column[],
  x0: number,
  toY: (value: number) => number,
  color: string,
  width = 1.25,
) {
  context.strokeStyle = color;
  context.lineWidth = width;
  context.lineJoin = 'round';
  context.beginPath();
  let previous: Column = null;
  columns.forEach((column, i) => {
    if (!column) {
      previous = null;
      return;
    }
    const x = x0 + i + 0.5;
    const top = toY(column.max);
    const bottom = toY(column.min);
    if (previous) context.lineTo(x, (top + bottom) / 2);
    else context.moveTo(x, (top + bottom) / 2);
    context.moveTo(x, top);
    context.lineTo(x, Math.max(bottom, top + 0.5));
    context.moveTo(x, (top + bottom) / 2);
    previous = column;
  });
  context.stroke();
}

/** Samples of `samples` (at `rate`, first one at `dataStart` s) between `from` and `to` s as columns. */
export function columnsForTime(
  samples: readonly (number | null)[],
  rate: number,
  dataStart: number,
  from: number,
  to: number,
  widthPx: number,
): Column[] {
  return minMaxColumns(samples, (from - dataStart) * rate, (to - dataStart) * rate, Math.max(1, Math.round(widthPx)));
}

/** The median of the finite values (the display baseline of a lead). */
export function median(values: readonly (number | null)[]): number {
  const finite = values.filter((v): v is number => v !== null && Number.isFinite(v)).sort((a, b) => a - b);
  if (finite.length === 0) return 0;
  return finite[Math.floor(finite.length / 2)] ?? 0;
}
