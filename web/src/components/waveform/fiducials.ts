/**
 * The 12-lead reading's marks on the ECG paper, free of the DOM: the global fiducial lines (P
 * onset, QRS onset, QRS offset, T end across the leads) that fall in view and where they are, each
 * lead's own fiducials as ticks inside the segments that show that lead (so a 3 x 4 page marks a
 * lead only in its 2.5 s), and the dash pattern that tells each kind apart without colour.
 */
import type { WaveformView } from '../../api/client';
import { xAt, type CaliperFrame } from './calipers';
import type { Row } from './paperLayout';

/** A position to the hundredth of a pixel (exact enough to draw, stable to compare). */
const px = (value: number) => Math.round(value * 100) / 100;

/** What the server reads of a 12-lead ECG (absent for fewer than three standard leads). */
export type Ecg12Marks = NonNullable<WaveformView['ecg12']>;
export type GlobalBeat = Ecg12Marks['global_beats'][number];
export type LeadBeat = Ecg12Marks['lead_marks'][number]['beats'][number];

/** The global fiducials drawn, in the order of a beat. */
export const FIDUCIAL_KINDS = ['p_on', 'qrs_on', 'qrs_off', 't_off'] as const;
export type FiducialKind = (typeof FIDUCIAL_KINDS)[number];

/** Each kind's dash pattern (SVG `stroke-dasharray`), so the four differ in grey and in print. */
export const FIDUCIAL_DASH: Record<FiducialKind, string> = {
  p_on: '1 3',
  qrs_on: '6 3',
  qrs_off: '6 2 1 2',
  t_off: '10 4',
};

/** One global fiducial line: its kind, its time (seconds) and its x on the paper (pixels). */
export interface FiducialLine {
  kind: FiducialKind;
  t: number;
  x: number;
}

/** The global fiducials of `beats` in `[frame.from, frame.from + span)`, in time order. */
export function fiducialLines(beats: readonly GlobalBeat[], frame: CaliperFrame, span: number): FiducialLine[] {
  const to = frame.from + span;
  const lines: FiducialLine[] = [];
  for (const beat of beats) {
    for (const kind of FIDUCIAL_KINDS) {
      const t = beat[kind];
      if (t === null || t === undefined || t < frame.from || t >= to) continue;
      lines.push({ kind, t, x: px(xAt(frame, t)) });
    }
  }
  return lines.sort((a, b) => a.t - b.t);
}

/** A lead's own fiducials that get a tick: the wave boundaries. */
export const LEAD_MARK_KINDS = ['p_on', 'p_off', 'qrs_on', 'qrs_off', 't_on', 't_off'] as const;
export type LeadMarkKind = (typeof LEAD_MARK_KINDS)[number];

/** One tick of a lead's own fiducial, in the row and segment that show that lead. */
export interface LeadTick {
  row: number;
  lead: string;
  kind: LeadMarkKind;
  t: number;
  x: number;
}

/** A lead's name as the server and the files may spell it: "aVR", "avr", "Lead II" are one lead. */
export function leadKey(name: string): string {
  return name.toLowerCase().replace(/\s+/g, '').replace(/^lead/, '');
}

/**
 * The ticks of each lead's own fiducials on `rows`: a segment gets the ticks of the lead it shows
 * (matched by its channel's name) that fall inside its own time range, never another's.
 */
export function leadTicks(
  marks: Ecg12Marks['lead_marks'],
  rows: readonly Row[],
  channelNames: readonly string[],
  frame: CaliperFrame,
): LeadTick[] {
  const byLead = new Map(marks.map((lead) => [leadKey(lead.name), lead] as const));
  const ticks: LeadTick[] = [];
  rows.forEach((row, r) => {
    for (const segment of row.segments) {
      const lead = byLead.get(leadKey(channelNames[segment.channel] ?? ''));
      if (!lead) continue;
      for (const beat of lead.beats) {
        for (const kind of LEAD_MARK_KINDS) {
          const t = beat[kind];
          if (t === null || t === undefined || t < segment.from || t >= segment.to) continue;
          ticks.push({ row: r, lead: lead.name, kind, t, x: px(xAt(frame, t)) });
        }
      }
    }
  });
  return ticks;
}

/** The times of the lines a caliper's edge snaps to. */
export function snapTargets(lines: readonly FiducialLine[]): number[] {
  return lines.map((line) => line.t);
}
