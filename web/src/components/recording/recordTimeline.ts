/**
 * The maths of a whole recording's timeline, kept apart from React so it can be tested exactly:
 * the heart-rate trend (instantaneous rate from each RR interval, the median per time bin, no value
 * where a bin has too few beats), the scales from seconds and beats per minute to pixels, the time
 * axis's ticks, the rectangles of the result's episodes, where the paper's window goes when the
 * timeline is clicked or driven by keys, and the parsing of a long result's `details`.
 */

/** The kinds of episode a long recording's result reports, in the order a legend lists them. */
export const EPISODE_KINDS = [
  'af',
  'flutter',
  'svt_run',
  'vt_run',
  'pause',
  'tachycardia',
  'bradycardia',
  'noisy',
] as const;
export type EpisodeKind = (typeof EPISODE_KINDS)[number];

/** One stretch of the recording the model read as one rhythm (or as too noisy to read). */
export interface Episode {
  kind: EpisodeKind;
  start_s: number;
  end_s: number;
}

/** What a long recording's result says about the whole record (each field absent when not given). */
export interface RecordDetails {
  /** `null` when the result has no episode list (an older result): not the same as an empty list. */
  episodes: Episode[] | null;
  afBurden: number | null;
  analysedS: number | null;
  noisyS: number | null;
  beatCounts: { n: number; s: number; v: number } | null;
}

const KIND_SET = new Set<string>(EPISODE_KINDS);

function finite(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `details` keys of a recording read whole, shown by the episodes table rather than as raw details. */
export const RECORD_KEYS = [
  'episodes',
  'af_burden',
  'analysed_s',
  'noisy_s',
  'window_s',
  'beat_counts',
  'ectopy',
] as const;

/** Reads the whole-record fields of a result's `details`; episodes of an unknown kind or with bad times are left out. */
export function recordDetails(details: unknown): RecordDetails {
  const d = isRecord(details) ? details : {};
  let episodes: Episode[] | null = null;
  if (Array.isArray(d.episodes)) {
    episodes = [];
    for (const item of d.episodes) {
      if (!isRecord(item) || typeof item.kind !== 'string' || !KIND_SET.has(item.kind)) continue;
      const start = finite(item.start_s);
      const end = finite(item.end_s);
      if (start === null || end === null || end < start) continue;
      episodes.push({ kind: item.kind as EpisodeKind, start_s: start, end_s: end });
    }
    episodes.sort((a, b) => a.start_s - b.start_s || a.end_s - b.end_s);
  }
  const counts = isRecord(d.beat_counts) ? d.beat_counts : null;
  const n = finite(counts?.n);
  const s = finite(counts?.s);
  const v = finite(counts?.v);
  return {
    episodes,
    afBurden: finite(d.af_burden),
    analysedS: finite(d.analysed_s),
    noisyS: finite(d.noisy_s),
    beatCounts: n !== null && s !== null && v !== null ? { n, s, v } : null,
  };
}

/** The AF episodes' count and the longest one's length, seconds (0 when none). */
export function afSummary(episodes: readonly Episode[]): { count: number; longestS: number } {
  const af = episodes.filter((e) => e.kind === 'af');
  return { count: af.length, longestS: af.reduce((longest, e) => Math.max(longest, e.end_s - e.start_s), 0) };
}

/** A length split for reading: seconds under a minute, minutes and seconds under an hour, else hours and minutes. */
export function durationParts(seconds: number): { h: number; m: number; s: number } {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 3600) return { h: 0, m: Math.floor(whole / 60), s: whole % 60 };
  const minutes = Math.round(whole / 60);
  return { h: Math.floor(minutes / 60), m: minutes % 60, s: 0 };
}

/** "h:mm:ss" for a time in the recording, to the nearest second. */
export function formatHms(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/** Bin widths the trend may use, seconds: the smallest that keeps a record under `MAX_BINS` bins. */
const BIN_WIDTHS = [10, 30, 60, 120, 300, 600];
const MAX_BINS = 600;

export function binSeconds(duration: number): number {
  return BIN_WIDTHS.find((width) => duration / width <= MAX_BINS) ?? (BIN_WIDTHS.at(-1) as number);
}

/** RR intervals outside this range (seconds) are a missed or extra beat, not a rate: 20 to 300 bpm. */
const RR_MIN_S = 0.2;
const RR_MAX_S = 3;
/** A bin needs this many rates for its median to be drawn. */
const MIN_RATES_PER_BIN = 2;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * The heart-rate trend: for each `bin`-second bin of the record, the median of the instantaneous
 * rates (60 / RR, beats per minute, placed at the second beat) that fall in it, or `null` (a gap)
 * where fewer than two do. `beats` are the beat times in seconds, in order.
 */
export function heartRateBins(beats: readonly number[], duration: number, bin: number): (number | null)[] {
  const count = Math.max(0, Math.ceil(duration / bin));
  const rates: number[][] = Array.from({ length: count }, () => []);
  for (let i = 1; i < beats.length; i += 1) {
    const rr = (beats[i] as number) - (beats[i - 1] as number);
    if (rr < RR_MIN_S || rr > RR_MAX_S) continue;
    const index = Math.min(count - 1, Math.floor((beats[i] as number) / bin));
    if (index >= 0) rates[index]?.push(60 / rr);
  }
  return rates.map((values) => (values.length >= MIN_RATES_PER_BIN ? median(values) : null));
}

/** The trend's vertical range, bpm: the rates' span out to tens, at least 40 bpm tall; 40-120 with no rate. */
export function rateRange(bins: readonly (number | null)[]): { lo: number; hi: number } {
  const values = bins.filter((v): v is number => v !== null);
  if (values.length === 0) return { lo: 40, hi: 120 };
  let lo = Math.floor(Math.min(...values) / 10) * 10;
  let hi = Math.ceil(Math.max(...values) / 10) * 10;
  if (hi - lo < 40) {
    const grow = 40 - (hi - lo);
    lo = Math.max(0, lo - Math.ceil(grow / 20) * 10);
    hi = lo + Math.max(40, hi - lo);
  }
  return { lo, hi };
}

/** A linear map from one interval onto another, and back. */
export interface Scale {
  (value: number): number;
  invert(position: number): number;
}

export function linearScale(domain: readonly [number, number], range: readonly [number, number]): Scale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  const scale = ((value: number) => r0 + (value - d0) * k) as Scale;
  scale.invert = (position: number) => (k === 0 ? d0 : d0 + (position - r0) / k);
  return scale;
}

/** An SVG path of the trend, one sub-path per run of bins with a rate (a point at each bin's centre). */
export function trendPath(bins: readonly (number | null)[], bin: number, x: Scale, y: Scale): string {
  const parts: string[] = [];
  let open = false;
  bins.forEach((rate, index) => {
    if (rate === null) {
      open = false;
      return;
    }
    const px = round1(x((index + 0.5) * bin));
    const py = round1(y(rate));
    parts.push(`${open ? 'L' : 'M'}${px} ${py}`);
    if (!open) parts.push(`L${px} ${py}`);
    open = true;
  });
  return parts.join(' ');
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

/** Tick steps of the time axis, seconds. */
const TICK_STEPS = [10, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600];
/** Pixels a "h:mm:ss" label needs. */
const TICK_MIN_PX = 70;

/** The time axis's ticks: multiples of the smallest step that leaves each label `TICK_MIN_PX`, from 0 to `duration`. */
export function timeTicks(duration: number, plotWidth: number): number[] {
  const most = Math.max(1, Math.floor(plotWidth / TICK_MIN_PX));
  const step = TICK_STEPS.find((s) => duration / s <= most) ?? (TICK_STEPS.at(-1) as number);
  const ticks: number[] = [];
  for (let t = 0; t <= duration + 1e-9; t += step) ticks.push(t);
  return ticks;
}

/** Where an episode is drawn: a band over the whole trend, a band in the rate row, or a tick. */
export type EpisodeRow = 'rhythm' | 'rate' | 'tick';

export const EPISODE_ROW: Record<EpisodeKind, EpisodeRow> = {
  af: 'rhythm',
  flutter: 'rhythm',
  noisy: 'rhythm',
  tachycardia: 'rate',
  bradycardia: 'rate',
  pause: 'tick',
  svt_run: 'tick',
  vt_run: 'tick',
};

/** Bands narrower than this (pixels) are widened to it so they stay visible. */
export const MIN_BAND_PX = 2;

export interface EpisodeShape {
  kind: EpisodeKind;
  row: EpisodeRow;
  x: number;
  width: number;
  episode: Episode;
}

/** Each episode's horizontal place: bands from start to end (at least `MIN_BAND_PX` wide), ticks at the start. */
export function episodeShapes(episodes: readonly Episode[], x: Scale): EpisodeShape[] {
  return episodes.map((episode) => {
    const row = EPISODE_ROW[episode.kind];
    const x0 = round1(x(episode.start_s));
    const width = row === 'tick' ? 0 : Math.max(MIN_BAND_PX, round1(x(episode.end_s) - x0));
    return { kind: episode.kind, row, x: x0, width, episode };
  });
}

/** The paper's start that centres a `span`-second window on `t`, kept inside the record. */
export function centredStart(t: number, span: number, duration: number): number {
  return clampWindow(t - span / 2, span, duration);
}

/** `start` kept so a `span`-second window stays inside a `duration`-second record. */
export function clampWindow(start: number, span: number, duration: number): number {
  const latest = Math.max(0, duration - span);
  return Math.min(Math.max(0, start), latest);
}

/** Where the paper's window goes for a key pressed on the timeline (`null`: the key is not the timeline's). */
export function timelineKey(key: string, from: number, span: number, duration: number): number | null {
  switch (key) {
    case 'ArrowLeft':
      return clampWindow(from - span, span, duration);
    case 'ArrowRight':
      return clampWindow(from + span, span, duration);
    case 'Home':
      return 0;
    case 'End':
      return clampWindow(duration, span, duration);
    default:
      return null;
  }
}
