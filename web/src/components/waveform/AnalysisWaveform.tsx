import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ChevronLeft, ChevronRight, ZoomIn, ZoomOut } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import type { LoadWaveformWindow } from '../../api/waveforms';
import { queryKeys } from '../../api/queryKeys';
import { serverErrorText } from '../../lib/apiErrors';
import { reasonText } from '../../lib/clinicalText';
import { Spinner } from '../Spinner';
import { EcgPaper, type EcgLayout } from './EcgPaper';
import {
  clampStart,
  clock,
  DEFAULT_ECG_ZOOM_INDEX,
  ECG_ZOOM_PX_PER_MM,
  ecgVisibleSeconds,
  TWELVE_LEAD_COLUMNS,
  TWELVE_LEAD_SEGMENT_S,
  twelveLeadIndices,
} from './geometry';
import { SignalStrip } from './SignalStrip';
import { WaveformPlayback } from './WaveformPlayback';

export type WaveformKind = 'ecg' | 'pcg' | 'ppg';

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

/** The element's content width, following resizes. */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(FALLBACK_WIDTH);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const measured = Math.floor(entry?.contentRect.width ?? 0);
      if (measured > 0) setWidth(measured);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

/**
 * The waveform of a stored analysis (ECG on paper, PCG with S1/S2, PPG with pulse peaks), drawn a
 * window at a time from what `load` returns (the page passes the API's loader): zoom, scroll
 * (buttons, slider, arrow keys), and for 12-lead files the standard 3 x 4 layout with a rhythm strip.
 * Heart sounds play back with a cursor that moves over the strip, which follows it a page at a time.
 */
export function AnalysisWaveform({
  analysisId,
  kind,
  load,
}: {
  analysisId: string;
  kind: WaveformKind;
  load: LoadWaveformWindow;
}) {
  const { t } = useTranslation();
  const hintId = useId();
  const { ref, width } = useWidth();
  const [start, setStart] = useState(0);
  const [zoom, setZoom] = useState(kind === 'ecg' ? DEFAULT_ECG_ZOOM_INDEX : DEFAULT_STRIP_ZOOM[kind]);
  const [layoutChoice, setLayoutChoice] = useState<EcgLayout | null>(null);
  // Heart-sound playback time, seconds (null when not playing).
  const [playhead, setPlayhead] = useState<number | null>(null);
  // The window to draw comes from a query keyed by position and span, so it must know the recording's
  // length and leads first: they come from the last window received (kept while the next loads).
  const [last, setLast] = useState<{ duration: number; leads: string } | null>(null);
  const duration = last?.duration ?? null;
  const twelve = useMemo(() => (last ? twelveLeadIndices(JSON.parse(last.leads) as string[]) : null), [last]);
  const layout: EcgLayout = layoutChoice ?? (twelve ? 'twelve' : 'leads');
  const zoomLevels = kind === 'ecg' ? ECG_ZOOM_PX_PER_MM.length : STRIP_SPANS[kind].length;
  const pxPerMm = ECG_ZOOM_PX_PER_MM[Math.min(zoom, ECG_ZOOM_PX_PER_MM.length - 1)] ?? 3;
  let span: number;
  if (kind !== 'ecg') span = STRIP_SPANS[kind][zoom] ?? 10;
  else if (layout === 'twelve' && twelve) span = TWELVE_LEAD_SEGMENT_S * TWELVE_LEAD_COLUMNS.length;
  else span = Math.min(MAX_WINDOW_S, Math.round(ecgVisibleSeconds(width, pxPerMm) * 10) / 10);
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
  const zoomIn = () => canZoomIn && setZoom(zoomedIn);
  const zoomOut = () => canZoomOut && setZoom(zoomedOut);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
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
  const canvasLabel = t('waveform.canvasLabel', { kind: kind.toUpperCase(), range });

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
        layout={layout}
        twelve={twelve}
        label={canvasLabel}
      />
    );
  } else {
    body = <SignalStrip data={data} from={from} span={span} width={width} label={canvasLabel} />;
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
          {kind === 'ecg' && twelve ? (
            <div className="segmented" role="group" aria-label={t('waveform.layout')}>
              {(['twelve', 'leads'] as const).map((value) => (
                <button
                  key={value}
                  type="button"
                  className={`chip${layout === value ? ' chip--active' : ''}`}
                  aria-pressed={layout === value}
                  onClick={() => setLayoutChoice(value)}
                >
                  {t(`waveform.layouts.${value}`)}
                </button>
              ))}
            </div>
          ) : null}
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
      <p className="waveform__legend muted" id={hintId}>
        {t(`waveform.legend.${kind}`)} · {t('waveform.keys')}
      </p>
      {data?.marks_note ? (
        <p className="waveform__legend muted">{t('waveform.noMarks', { reason: reasonText(data.marks_note) })}</p>
      ) : null}
    </section>
  );
}
