/**
 * A long recording's heart rate and heart-rate variability as a Holter report gives them: one
 * table of the heart rate's minimum (with its time), mean and maximum (with its time) and the
 * 5-min HRV (SDNN, SDANN, SDNN index, RMSSD, pNN50; Task Force 1996), and one row per hour of the
 * record (beats, mean, slowest and fastest minute); when the result classed every beat, the N, S
 * and V beats with their share of all beats and the ectopic patterns (isolated beats, couplets, runs
 * of three or more, bigeminy, trigeminy) of each class. It reads the result's `heart_rate_summary`,
 * `hrv`, `hourly`, `beat_counts` and `ectopy` details and draws nothing when none is given; times
 * read as h:mm:ss from the record's start. It calls no API.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatHms } from './recordTimeline';

/** The heart rate's minimum, mean and maximum, bpm, with the minima's and maxima's times, s. */
export interface HeartRateSummary {
  minBpm: number;
  minAtS: number;
  meanBpm: number;
  maxBpm: number;
  maxAtS: number;
}

/** Time-domain HRV over 5-min segments, ms and %; `null` where the result gives none. */
export interface HrvFigures {
  sdnnMs: number | null;
  sdannMs: number | null;
  sdnnIndexMs: number | null;
  rmssdMs: number | null;
  pnn50Percent: number | null;
  segments: number | null;
}

/** One hour of the record. */
export interface HourRow {
  startS: number;
  endS: number;
  beats: number | null;
  meanBpm: number | null;
  minBpm: number | null;
  maxBpm: number | null;
}

/** The ectopic patterns counted per class, in the order the table lists them. */
export const ECTOPY_PATTERNS = ['isolated', 'couplets', 'runs', 'bigeminy', 'trigeminy'] as const;
export type EctopyPattern = (typeof ECTOPY_PATTERNS)[number];

/** Beats per class and the ectopic patterns of supraventricular (`s`) and ventricular (`v`) beats; `null` where not given. */
export interface BeatFigures {
  counts: { n: number; s: number; v: number };
  ectopy: Record<EctopyPattern, { s: number | null; v: number | null }> | null;
}

export interface HolterFigures {
  heartRate: HeartRateSummary | null;
  hrv: HrvFigures | null;
  hourly: HourRow[];
  beats: BeatFigures | null;
}

function finite(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the heart-rate and HRV details of a long result; what is missing or malformed is left out. */
export function holterFigures(details: unknown): HolterFigures {
  const d = isRecord(details) ? details : {};
  let heartRate: HeartRateSummary | null = null;
  if (isRecord(d.heart_rate_summary)) {
    const h = d.heart_rate_summary;
    const minBpm = finite(h.min_bpm);
    const minAtS = finite(h.min_at_s);
    const meanBpm = finite(h.mean_bpm);
    const maxBpm = finite(h.max_bpm);
    const maxAtS = finite(h.max_at_s);
    if (minBpm !== null && minAtS !== null && meanBpm !== null && maxBpm !== null && maxAtS !== null) {
      heartRate = { minBpm, minAtS, meanBpm, maxBpm, maxAtS };
    }
  }
  const h = isRecord(d.hrv) ? d.hrv : null;
  const hrv: HrvFigures | null = h
    ? {
        sdnnMs: finite(h.sdnn_ms),
        sdannMs: finite(h.sdann_ms),
        sdnnIndexMs: finite(h.sdnn_index_ms),
        rmssdMs: finite(h.rmssd_ms),
        pnn50Percent: finite(h.pnn50_percent),
        segments: finite(h.segments),
      }
    : null;
  const hourly: HourRow[] = [];
  if (Array.isArray(d.hourly)) {
    for (const row of d.hourly) {
      if (!isRecord(row)) continue;
      const startS = finite(row.start_s);
      const endS = finite(row.end_s);
      if (startS === null || endS === null || endS < startS) continue;
      hourly.push({
        startS,
        endS,
        beats: finite(row.beats),
        meanBpm: finite(row.mean_bpm),
        minBpm: finite(row.min_bpm),
        maxBpm: finite(row.max_bpm),
      });
    }
  }
  return { heartRate, hrv, hourly, beats: beatFigures(d) };
}

/** Reads `beat_counts` and `ectopy`: `null` without the three counts; the patterns `null` without `ectopy`. */
export function beatFigures(details: Record<string, unknown>): BeatFigures | null {
  const c = isRecord(details.beat_counts) ? details.beat_counts : null;
  const n = finite(c?.n);
  const s = finite(c?.s);
  const v = finite(c?.v);
  if (n === null || s === null || v === null) return null;
  const e = isRecord(details.ectopy) ? details.ectopy : null;
  const ectopy = e
    ? (Object.fromEntries(
        ECTOPY_PATTERNS.map((pattern) => [pattern, { s: finite(e[`s_${pattern}`]), v: finite(e[`v_${pattern}`]) }]),
      ) as BeatFigures['ectopy'])
    : null;
  return { counts: { n, s, v }, ectopy };
}

export function HolterTables({ details }: { details: unknown }) {
  const { t, i18n } = useTranslation();
  const ids = useId();
  const { heartRate, hrv, hourly, beats } = holterFigures(details);
  if (!heartRate && !hrv && hourly.length === 0 && !beats) return null;
  const one = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const whole = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 });
  const dash = '—';
  const bpm = (value: number | null) => (value === null ? dash : whole.format(value));
  const withUnit = (key: 'bpm' | 'ms' | 'percent', value: number | null, format = one) =>
    value === null ? dash : t(`wholeRecord.holterTables.${key}`, { value: format.format(value) });
  const figures: { name: string; value: string; at: string }[] = [];
  if (heartRate) {
    figures.push(
      {
        name: t('wholeRecord.holterTables.minimum'),
        value: withUnit('bpm', heartRate.minBpm, whole),
        at: formatHms(heartRate.minAtS),
      },
      { name: t('wholeRecord.holterTables.mean'), value: withUnit('bpm', heartRate.meanBpm, whole), at: '' },
      {
        name: t('wholeRecord.holterTables.maximum'),
        value: withUnit('bpm', heartRate.maxBpm, whole),
        at: formatHms(heartRate.maxAtS),
      },
    );
  }
  if (hrv) {
    figures.push(
      { name: t('wholeRecord.holterTables.sdnn'), value: withUnit('ms', hrv.sdnnMs), at: '' },
      { name: t('wholeRecord.holterTables.sdann'), value: withUnit('ms', hrv.sdannMs), at: '' },
      { name: t('wholeRecord.holterTables.sdnnIndex'), value: withUnit('ms', hrv.sdnnIndexMs), at: '' },
      { name: t('wholeRecord.holterTables.rmssd'), value: withUnit('ms', hrv.rmssdMs), at: '' },
      { name: t('wholeRecord.holterTables.pnn50'), value: withUnit('percent', hrv.pnn50Percent), at: '' },
    );
  }
  return (
    <>
      {figures.length > 0 ? (
        <section className="record-episodes" aria-labelledby={`${ids}-figures`} data-testid="holter-figures">
          <h3 id={`${ids}-figures`}>{t('wholeRecord.holterTables.title')}</h3>
          <div className="record-episodes__scroll">
            <table className="record-episodes__table">
              <thead>
                <tr>
                  <th scope="col">{t('wholeRecord.holterTables.figure')}</th>
                  <th scope="col">{t('wholeRecord.holterTables.value')}</th>
                  <th scope="col">{t('wholeRecord.holterTables.at')}</th>
                </tr>
              </thead>
              <tbody>
                {figures.map((figure) => (
                  <tr key={figure.name}>
                    <th scope="row">{figure.name}</th>
                    <td>{figure.value}</td>
                    <td>{figure.at}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {hrv?.segments != null ? (
            <p className="muted">{t('wholeRecord.holterTables.segments', { count: hrv.segments })}</p>
          ) : null}
        </section>
      ) : null}
      {hourly.length > 0 ? (
        <section className="record-episodes" aria-labelledby={`${ids}-hourly`} data-testid="holter-hourly">
          <h3 id={`${ids}-hourly`}>{t('wholeRecord.holterTables.hourlyTitle')}</h3>
          <div className="record-episodes__scroll">
            <table className="record-episodes__table">
              <thead>
                <tr>
                  <th scope="col">{t('wholeRecord.holterTables.hour')}</th>
                  <th scope="col">{t('wholeRecord.holterTables.beats')}</th>
                  <th scope="col">{t('wholeRecord.holterTables.meanBpm')}</th>
                  <th scope="col">{t('wholeRecord.holterTables.minBpm')}</th>
                  <th scope="col">{t('wholeRecord.holterTables.maxBpm')}</th>
                </tr>
              </thead>
              <tbody>
                {hourly.map((row) => (
                  <tr key={row.startS}>
                    <th scope="row">
                      {formatHms(row.startS)} – {formatHms(row.endS)}
                    </th>
                    <td>{row.beats === null ? dash : whole.format(row.beats)}</td>
                    <td>{bpm(row.meanBpm)}</td>
                    <td>{bpm(row.minBpm)}</td>
                    <td>{bpm(row.maxBpm)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
      {beats ? <BeatTables beats={beats} title={`${ids}-beats`} /> : null}
    </>
  );
}

/** The beats table (N, S, V with their share of all beats) and, when given, the ectopy table. */
function BeatTables({ beats, title }: { beats: BeatFigures; title: string }) {
  const { t, i18n } = useTranslation();
  const whole = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 });
  const share = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 });
  const total = beats.counts.n + beats.counts.s + beats.counts.v;
  const dash = '—';
  const count = (value: number | null) => (value === null ? dash : whole.format(value));
  const classes = (['n', 's', 'v'] as const).map((code) => ({
    code,
    name: t(`wholeRecord.beatTables.${code}`),
    beats: beats.counts[code],
  }));
  return (
    <section className="record-episodes" aria-labelledby={title} data-testid="holter-beats">
      <h3 id={title}>{t('wholeRecord.beatTables.title')}</h3>
      <div className="record-episodes__scroll">
        <table className="record-episodes__table">
          <thead>
            <tr>
              <th scope="col">{t('wholeRecord.beatTables.class')}</th>
              <th scope="col">{t('wholeRecord.beatTables.beats')}</th>
              <th scope="col">{t('wholeRecord.beatTables.share')}</th>
            </tr>
          </thead>
          <tbody>
            {classes.map((row) => (
              <tr key={row.code}>
                <th scope="row">{row.name}</th>
                <td>{whole.format(row.beats)}</td>
                <td>{total > 0 ? share.format(row.beats / total) : dash}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {beats.ectopy ? (
        <div className="record-episodes__scroll">
          <table className="record-episodes__table" aria-label={t('wholeRecord.beatTables.ectopyTitle')}>
            <thead>
              <tr>
                <th scope="col">{t('wholeRecord.beatTables.pattern')}</th>
                <th scope="col">{t('wholeRecord.beatTables.supraventricular')}</th>
                <th scope="col">{t('wholeRecord.beatTables.ventricular')}</th>
              </tr>
            </thead>
            <tbody>
              {ECTOPY_PATTERNS.map((pattern) => (
                <tr key={pattern}>
                  <th scope="row">{t(`wholeRecord.beatTables.${pattern}`)}</th>
                  <td>{count(beats.ectopy?.[pattern].s ?? null)}</td>
                  <td>{count(beats.ectopy?.[pattern].v ?? null)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
