import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ChevronLeft, ChevronRight, ZoomIn, ZoomOut } from 'lucide-react';
import { useEffect, useId, useMemo, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import type { LoadWaveformWindow } from '../../api/waveforms';
import { queryKeys } from '../../api/queryKeys';
import { serverErrorText } from '../../lib/apiErrors';
import { reasonText } from '../../lib/clinicalText';
import { useScreenPxPerMm } from '../../lib/screenCalibration';
import { Spinner } from '../Spinner';
import { caliperKey, caliperReading, type Caliper } from './calipers';
import { EcgControls, type EcgChoices } from './EcgControls';
import { EcgPaper } from './EcgPaper';
import { FiducialLegend } from './FiducialLayer';
import {
  clampStart,
  clock,
  DEFAULT_ECG_ZOOM_INDEX,
  ECG_ZOOM_PX_PER_MM,
  ecgVisibleSeconds,
  STANDARD_PAPER,
  twelveLeadIndices,
} from './geometry';
import { MedianPanel } from './MedianPanel';
import { layoutRows, layoutSpan } from './paperLayout';
import { SignalStrip } from './SignalStrip';
import { isMurmurTiming } from '../../lib/auscultation';
import { WaveformPlayback } from './WaveformPlayback';
import { useElementWidth } from '../../lib/useElementWidth';

export type WaveformKind = 'ecg' | 'pcg' | 'ppg';

/** What the viewer shows, reported to a page that draws around it (a whole-record timeline). */
export interface WaveformWindowState {
  /** The window's start and length, seconds. */
  from: number;
  span: number;
  /** The whole recording's length, seconds. */
  total: number;
  /** Beat times of the whole recording, seconds. */
  beats: readonly number[];
}

/** A page's request to move the window to start at `start` seconds (a new object for each request). */
export interface WaveformSeek {
  start: number;
}

/** Seconds in view at each zoom level of the heart-sound and pulse strips. */
const STRIP_SPANS: Record<'pcg' | 'ppg', readonly number[]> = {
  pcg: [1, 2, 4, 8, 15],
  ppg: [5, 10, 20, 30, 60],
};
/** Default zoom: 4 s of heart sounds, 10 s of pulse. */
const DEFAULT_STRIP_ZOOM: Record<'pcg' | 'ppg', number> = { pcg: 2, ppg: 1 };
/** The server returns at most this many seconds per call. */
const MAX_WINDOW_S = 60;
/** Width used before the container has been measured (and in tests). */
const FALLBACK_WIDTH = 800;

/** The ECG paper's choices before the doctor makes any: 25 mm/s, 10 mm/mV, zoom not true size. */
const DEFAULT_CHOICES: Omit<EcgChoices, 'layout'> = {
  paper: STANDARD_PAPER,
  trueSize: false,
  calipers: false,
  march: false,
  fiducials: false,
  leadMarks: false,
  median: false,
};

/**
 * The waveform of a stored analysis (ECG on paper, PCG with S1/S2, PPG with pulse peaks), drawn a
 * window at a time from what `load` returns (the page passes the API's loader): zoom, scroll
 * (buttons, slider, arrow keys). ECG paper runs at 25 or 50 mm/s and 5, 10 or 20 mm/mV, true size
 * once the screen is calibrated, with calipers (pointer or keyboard); 12-lead files offer the 3 x 4
 * layout with a rhythm strip, 6 x 2, 12 x 1 and every lead stacked, and a record the server read as
 * a 12-lead ECG its fiducial lines (calipers snap to them), each lead's marks and its median beats. Heart sounds play back with a
 * cursor that moves over the strip, which follows it a page at a time. A page may move the window
 * (`seek`) and follow what it shows (`onView`), to draw the whole record around it.
 */
export function AnalysisWaveform({
  analysisId,
  kind,
  load,
  calibrateHref,
  seek,
  onView,
  murmurTiming = null,
}: {
  analysisId: string;
  kind: WaveformKind;
  /** Heart sounds: the timing of the murmur heard in this recording, shaded in each systole. */
  murmurTiming?: string | null;
  load: LoadWaveformWindow;
  /** Where this screen is calibrated for true size (the Settings page), when the page gives it. */
  calibrateHref?: string;
  /** The page's latest request to move the window (each request a new object). */
  seek?: WaveformSeek | null;
  /** Told the window shown, the record's length and its beats, each time they change. */
  onView?: (view: WaveformWindowState) => void;
}) {
  const { t } = useTranslation();
  const hintId = useId();
  const { ref, width } = useElementWidth(FALLBACK_WIDTH);
  const [start, setStart] = useState(seek?.start ?? 0);
  const [seekSeen, setSeekSeen] = useState(seek);
  if (seek !== seekSeen) {
    // Adjusting state while rendering, from the page's new request (React's documented pattern).
    setSeekSeen(seek);
    if (seek) setStart(seek.start);
  }
  const [zoom, setZoom] = useState(kind === 'ecg' ? DEFAULT_ECG_ZOOM_INDEX : DEFAULT_STRIP_ZOOM[kind]);
  const [layoutChoice, setLayoutChoice] = useState<EcgChoices['layout'] | null>(null);
  const [choices, setChoices] = useState(DEFAULT_CHOICES);
  const [caliper, setCaliper] = useState<Caliper | null>(null);
  const screenPxPerMm = useScreenPxPerMm();
  // Heart-sound playback time, seconds (null when not playing).
  const [playhead, setPlayhead] = useState<number | null>(null);
  // The window to draw comes from a query keyed by position and span, so it must know the recording's
  // length and leads first: they come from the last window received (kept while the next loads).
  const [last, setLast] = useState<{ duration: number; leads: string } | null>(null);
  const duration = last?.duration ?? null;
  const twelve = useMemo(() => (last ? twelveLeadIndices(JSON.parse(last.leads) as string[]) : null), [last]);
  const layout = twelve ? (layoutChoice ?? 'twelve') : 'leads';
  const paper = choices.paper;
  const trueSize = choices.trueSize && screenPxPerMm !== null;
  const zoomLevels = kind === 'ecg' ? ECG_ZOOM_PX_PER_MM.length : STRIP_SPANS[kind].length;
  const pxPerMm =
    trueSize && screenPxPerMm !== null
      ? screenPxPerMm
      : (ECG_ZOOM_PX_PER_MM[Math.min(zoom, ECG_ZOOM_PX_PER_MM.length - 1)] ?? 3);
  let span: number;
  if (kind !== 'ecg') span = STRIP_SPANS[kind][zoom] ?? 10;
  else {
    const fitted = Math.min(MAX_WINDOW_S, Math.round(ecgVisibleSeconds(width, pxPerMm, paper.speedMmPerS) * 10) / 10);
    span = layoutSpan(layout, twelve, fitted);
  }
  const from = duration === null ? start : clampStart(start, span, duration);

  const query = useQuery({
    queryKey: queryKeys.analysisWaveform(analysisId, Math.round(from * 100) / 100, span),
    queryFn: () => load(analysisId, from, span),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const data = query.data;
  const leads = data ? JSON.stringify(data.channels.map((c) => c.name)) : null;
  if (data && leads && (last?.duration !== data.duration_s || last.leads !== leads)) {
    // Adjusting state while rendering, from data just received (React's documented pattern).
    setLast({ duration: data.duration_s, leads });
  }

  const total = data?.duration_s ?? duration ?? 0;
  const beats = data?.beats_s;
  useEffect(() => {
    if (onView && beats && total > 0) onView({ from, span, total, beats });
  }, [onView, from, span, total, beats]);
  // Playback leaving the window turns the page: the cursor starts the next one.
  if (playhead !== null && (playhead < from || playhead > from + span) && total > 0) {
    const page = clampStart(playhead, span, total);
    if (page !== start) setStart(page);
  }
  const scrollBy = (seconds: number) => setStart(clampStart(from + seconds, span, total));
  // Zooming in on ECG paper means more pixels per millimetre; on a strip, fewer seconds in view.
  const zoomedIn = kind === 'ecg' ? zoom + 1 : zoom - 1;
  const zoomedOut = kind === 'ecg' ? zoom - 1 : zoom + 1;
  const canZoomIn = zoomedIn >= 0 && zoomedIn < zoomLevels;
  const canZoomOut = zoomedOut >= 0 && zoomedOut < zoomLevels;
  // Zooming leaves true size for the zoom levels.
  const zoomTo = (level: number) => {
    setZoom(level);
    setChoices((current) => ({ ...current, trueSize: false }));
  };
  const zoomIn = () => canZoomIn && zoomTo(zoomedIn);
  const zoomOut = () => canZoomOut && zoomTo(zoomedOut);
  const rowCount = data
    ? layoutRows(
        layout,
        data.channels.map((c) => c.name),
        0,
        from,
        span,
        twelve,
      ).length
    : 1;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (kind === 'ecg' && choices.calipers) {
      // The calipers take the keys they know; the rest scroll and zoom as usual.
      const next = caliperKey(caliper, event.key, event.shiftKey, {
        t: from + span / 2,
        row: Math.floor((rowCount - 1) / 2),
      });
      if (next !== undefined) {
        event.preventDefault();
        setCaliper(next);
        return;
      }
    }
    const actions: Record<string, () => void> = {
      ArrowLeft: () => scrollBy(-span / 2),
      ArrowRight: () => scrollBy(span / 2),
      Home: () => setStart(0),
      End: () => setStart(clampStart(total, span, total)),
      '+': zoomIn,
      '=': zoomIn,
      '-': zoomOut,
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };

  const range = t('waveform.range', {
    from: clock(from),
    to: clock(Math.min(from + span, total || from + span)),
    total: clock(total),
  });
  const shaded = kind === 'pcg' && isMurmurTiming(murmurTiming);
  const canvasLabel = shaded
    ? `${t('waveform.canvasLabel', { kind: kind.toUpperCase(), range })}; ${t('waveform.murmurShaded', { timing: t(`murmur.timings.${murmurTiming}`) })}`
    : t('waveform.canvasLabel', { kind: kind.toUpperCase(), range });

  let body;
  if (query.isError) {
    body = (
      <div className="waveform__message" role="alert">
        <p>
          {query.error instanceof ApiError
            ? serverErrorText(query.error, t('waveform.loadError'), t)
            : t('waveform.loadError')}
        </p>
        <button type="button" className="button button--secondary" onClick={() => void query.refetch()}>
          {t('waveform.retry')}
        </button>
      </div>
    );
  } else if (!data) {
    body = <Spinner label={t('waveform.loading')} />;
  } else if (data.channels.every((c) => c.samples.length === 0)) {
    body = <p className="waveform__message muted">{t('waveform.empty')}</p>;
  } else if (kind === 'ecg') {
    body = (
      <EcgPaper
        data={data}
        from={from}
        span={span}
        pxPerMm={pxPerMm}
        paper={paper}
        layout={layout}
        twelve={twelve}
        label={canvasLabel}
        calipers={{ enabled: choices.calipers, caliper, march: choices.march, onChange: setCaliper }}
        marks={{ fiducials: choices.fiducials, leadMarks: choices.leadMarks }}
      />
    );
  } else {
    body = (
      <SignalStrip data={data} from={from} span={span} width={width} label={canvasLabel} murmurTiming={murmurTiming} />
    );
  }
  const cursor =
    playhead !== null && playhead >= from && playhead <= from + span ? (
      <div
        className="waveform__cursor"
        data-testid="playback-cursor"
        style={{ left: `${((playhead - from) / span) * 100}%` }}
        aria-hidden="true"
      />
    ) : null;

  return (
    <section className="waveform" aria-label={t('waveform.title')}>
      <div className="waveform__toolbar">
        <span className="waveform__range" aria-live="polite">
          {range}
        </span>
        <div className="waveform__controls">
          {kind === 'pcg' ? <WaveformPlayback analysisId={analysisId} load={load} onTime={setPlayhead} /> : null}
          <button
            type="button"
            className="icon-button"
            onClick={() => scrollBy(-span / 2)}
            disabled={from <= 0}
            aria-label={t('waveform.earlier')}
          >
            <ChevronLeft size={18} aria-hidden="true" />
          </button>
          <button
            type="button"
            className="icon-button"
            onClick={() => scrollBy(span / 2)}
            disabled={from + span >= total}
            aria-label={t('waveform.later')}
          >
            <ChevronRight size={18} aria-hidden="true" />
          </button>
          <button
            type="button"
            className="icon-button"
            onClick={zoomOut}
            disabled={!canZoomOut}
            aria-label={t('waveform.zoomOut')}
          >
            <ZoomOut size={18} aria-hidden="true" />
          </button>
          <button
            type="button"
            className="icon-button"
            onClick={zoomIn}
            disabled={!canZoomIn}
            aria-label={t('waveform.zoomIn')}
          >
            <ZoomIn size={18} aria-hidden="true" />
          </button>
        </div>
      </div>
      {kind === 'ecg' ? (
        <EcgControls
          choices={{ ...choices, layout, trueSize }}
          standardLeads={twelve !== null}
          calibrated={screenPxPerMm !== null}
          calibrateHref={calibrateHref}
          reading={Boolean(data?.ecg12)}
          onChange={({ layout: chosen, ...change }) => {
            if (chosen) setLayoutChoice(chosen);
            if (change.calipers === false) setCaliper(null);
            setChoices((current) => ({ ...current, ...change }));
          }}
        />
      ) : null}
      {total > span ? (
        <input
          className="waveform__position"
          type="range"
          min={0}
          max={Math.max(0, total - span)}
          step={0.1}
          value={from}
          onChange={(event) => setStart(Number(event.target.value))}
          aria-label={t('waveform.position')}
          aria-valuetext={range}
        />
      ) : null}
      <div ref={ref} className="waveform__viewport" tabIndex={0} onKeyDown={onKeyDown} aria-describedby={hintId}>
        {body}
        {cursor}
      </div>
      {kind === 'ecg' && choices.calipers ? <CaliperReadout caliper={caliper} /> : null}
      {kind === 'ecg' && data?.ecg12 && (choices.fiducials || choices.leadMarks) ? (
        <FiducialLegend lines={choices.fiducials} ticks={choices.leadMarks} />
      ) : null}
      {kind === 'ecg' && data?.ecg12 && choices.median ? (
        <MedianPanel median={data.ecg12.median} pxPerMm={pxPerMm} paper={paper} />
      ) : null}
      <p className="waveform__legend muted" id={hintId}>
        {t(`waveform.legend.${kind}`, { speed: paper.speedMmPerS, gain: paper.gainMmPerMv })} · {t('waveform.keys')}
        {kind === 'ecg' && choices.calipers ? ` · ${t('waveform.caliperKeys')}` : null}
      </p>
      {kind === 'ecg' && data?.beat_classes ? (
        <p className="waveform__legend muted" data-testid="beat-class-legend">
          {t('waveform.beatClasses.title')}{' '}
          <span aria-hidden="true" style={{ color: 'var(--color-text-muted)' }}>
            ▼
          </span>{' '}
          {t('waveform.beatClasses.n')} ·{' '}
          <span aria-hidden="true" style={{ color: 'var(--color-warning-text)' }}>
            S▼
          </span>{' '}
          {t('waveform.beatClasses.s')} ·{' '}
          <span aria-hidden="true" style={{ color: 'var(--color-danger-text)' }}>
            V▼
          </span>{' '}
          {t('waveform.beatClasses.v')}
        </p>
      ) : null}
      {data?.marks_note ? (
        <p className="waveform__legend muted">{t('waveform.noMarks', { reason: reasonText(data.marks_note) })}</p>
      ) : null}
    </section>
  );
}

/** What the caliper reads, as text a screen reader announces (and a test reads). */
function CaliperReadout({ caliper }: { caliper: Caliper | null }) {
  const { t, i18n } = useTranslation();
  let text = t('waveform.caliperHint');
  if (caliper) {
    const reading = caliperReading(caliper);
    const mv = new Intl.NumberFormat(i18n.language, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    text = t('waveform.caliperReadout', {
      ms: reading.ms,
      bpm: reading.bpm === null ? '–' : reading.bpm,
      mv: mv.format(reading.mv),
    });
  }
  return (
    <p className="waveform__readout" role="status" data-testid="caliper-readout">
      {text}
    </p>
  );
}
