/**
 * Where the median-beat panel puts things, free of the DOM: each lead's median complex in a cell
 * of a grid three rows high (I-III, aVR-aVF, V1-V3, V4-V6 as the 3 x 4 page has them), every cell
 * one median beat wide at the paper's speed and `ROW_MV` high at its gain, the complex as polyline
 * points (broken where a sample is missing), and the global fiducials' x in each cell.
 */
import type { Ecg12Marks, FiducialKind } from './fiducials';
import type { PaperSettings } from './geometry';
import { BASELINE_MV, rowMetrics } from './paperLayout';

export type MedianView = Ecg12Marks['median'];

/** Rows of the grid (columns follow from the number of leads). */
export const MEDIAN_ROWS = 3;

/** One lead's cell: its box, its label's place, and its complex as SVG polyline point lists. */
export interface MedianCell {
  lead: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** One `points` string per run of defined samples. */
  paths: string[];
}

/** One global fiducial, seconds from the median beat's start, and its x within a cell. */
export interface MedianFiducial {
  kind: FiducialKind;
  t: number;
  dx: number;
}

export interface MedianLayout {
  width: number;
  height: number;
  cells: MedianCell[];
  fiducials: MedianFiducial[];
}

const round = (v: number) => Math.round(v * 100) / 100;

/** The panel of `median` at `pxPerMm` on `paper`. */
export function medianLayout(median: MedianView, pxPerMm: number, paper: PaperSettings): MedianLayout {
  const rate = median.sampling_rate_hz;
  const pxPerS = paper.speedMmPerS * pxPerMm;
  const pxPerMv = paper.gainMmPerMv * pxPerMm;
  const length = Math.max(0, ...median.leads.map((lead) => lead.samples.length));
  const cellWidth = rate > 0 ? (length / rate) * pxPerS : 0;
  const cellHeight = rowMetrics(pxPerMm, paper).height;
  const cells = median.leads.map((lead, i): MedianCell => {
    const x = Math.floor(i / MEDIAN_ROWS) * cellWidth;
    const y = (i % MEDIAN_ROWS) * cellHeight;
    const baseline = y + BASELINE_MV * pxPerMv;
    const paths: string[] = [];
    let run: string[] = [];
    lead.samples.forEach((v, k) => {
      if (v === null || v === undefined || !Number.isFinite(v)) {
        if (run.length > 1) paths.push(run.join(' '));
        run = [];
        return;
      }
      run.push(`${round(x + (k / rate) * pxPerS)},${round(baseline - v * pxPerMv)}`);
    });
    if (run.length > 1) paths.push(run.join(' '));
    return { lead: lead.name, x, y, width: cellWidth, height: cellHeight, paths };
  });
  const seconds: Record<FiducialKind, number | null | undefined> = {
    p_on: median.p_on_s,
    qrs_on: median.qrs_on_s,
    qrs_off: median.qrs_off_s,
    t_off: median.t_off_s,
  };
  const fiducials = (Object.entries(seconds) as [FiducialKind, number | null | undefined][])
    .filter((entry): entry is [FiducialKind, number] => typeof entry[1] === 'number')
    .map(([kind, t]) => ({ kind, t, dx: t * pxPerS }));
  const columns = Math.ceil(median.leads.length / MEDIAN_ROWS);
  return {
    width: columns * cellWidth,
    height: Math.min(MEDIAN_ROWS, median.leads.length) * cellHeight,
    cells,
    fiducials,
  };
}
