/**
 * The whole recording at a glance, above the ECG paper of a long record: the heart-rate trend
 * (median of each bin, gaps where no beats were found), the result's episodes (AF and flutter
 * shaded, noisy stretches hatched, tachycardia and bradycardia as bands, pauses and runs as ticks),
 * the window the paper shows, and a time axis in h:mm:ss. It fits its container's width. A click
 * centres the paper on the clicked time; focused, it is a slider: Left and Right move the paper by
 * one window, Home and End to the record's ends. It draws what the page gives it and calls no API.
 */
import { useId, useMemo, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  binSeconds,
  centredStart,
  EPISODE_KINDS,
  episodeShapes,
  formatHms,
  heartRateBins,
  linearScale,
  rateRange,
  timelineKey,
  timeTicks,
  trendPath,
  type Episode,
} from './recordTimeline';
import { useElementWidth } from '../../lib/useElementWidth';

/** Width used before the container has been measured (and in tests). */
export const TIMELINE_FALLBACK_WIDTH = 800;
/** Room for the bpm labels on the left and the last time label on the right, pixels. */
export const TIMELINE_MARGIN = { left: 40, right: 24 } as const;
/** Rows from the top, pixels: ticks, rate bands, the trend, the axis labels. */
const TICK_ROW = { top: 0, bottom: 8 };
const RATE_ROW = { top: 9, bottom: 17 };
const PLOT = { top: 19, bottom: 79 };
const HEIGHT = 98;

export function RecordTimeline({
  duration,
  beats,
  episodes,
  from,
  span,
  onMove,
}: {
  /** The whole record's length, seconds. */
  duration: number;
  /** Beat times of the whole record, seconds, in order. */
  beats: readonly number[];
  /** The result's episodes; `null` when the result has none computed (an older result). */
  episodes: readonly Episode[] | null;
  /** The paper's window: its start and length, seconds. */
  from: number;
  span: number;
  /** Asks the page to move the paper's window to start at this time, seconds. */
  onMove: (start: number) => void;
}) {
  const { t } = useTranslation();
  const ids = useId();
  const hatchId = `hatch-${ids.replace(/[^a-zA-Z0-9]/g, '')}`;
  const { ref, width } = useElementWidth(TIMELINE_FALLBACK_WIDTH);
  const plotRight = Math.max(TIMELINE_MARGIN.left + 10, width - TIMELINE_MARGIN.right);
  const x = linearScale([0, duration], [TIMELINE_MARGIN.left, plotRight]);
  const bin = binSeconds(duration);
  const bins = useMemo(() => heartRateBins(beats, duration, bin), [beats, duration, bin]);
  const { lo, hi } = rateRange(bins);
  const y = linearScale([lo, hi], [PLOT.bottom, PLOT.top]);
  const trend = trendPath(bins, bin, x, y);
  const ticks = timeTicks(duration, plotRight - TIMELINE_MARGIN.left);
  const shapes = episodeShapes(episodes ?? [], x);
  const present = EPISODE_KINDS.filter((kind) => shapes.some((s) => s.kind === kind));
  const windowX = x(from);
  const windowWidth = Math.max(4, x(Math.min(duration, from + span)) - windowX);
  const kindName = (kind: Episode['kind']) => t(`wholeRecord.kinds.${kind}`);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = timelineKey(event.key, from, span, duration);
    if (next === null) return;
    event.preventDefault();
    onMove(next);
  };
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const left = event.currentTarget.getBoundingClientRect().left;
    const at = Math.min(duration, Math.max(0, x.invert(event.clientX - left)));
    onMove(centredStart(at, span, duration));
  };

  return (
    <div className="record-timeline" ref={ref}>
      <div
        className="record-timeline__track"
        role="slider"
        tabIndex={0}
        aria-label={t('wholeRecord.timeline')}
        aria-describedby={`${ids}-hint`}
        aria-valuemin={0}
        aria-valuemax={Math.round(duration)}
        aria-valuenow={Math.round(from)}
        aria-valuetext={t('wholeRecord.timelineValue', {
          from: formatHms(from),
          to: formatHms(Math.min(duration, from + span)),
          total: formatHms(duration),
        })}
        data-testid="record-timeline"
        onKeyDown={onKeyDown}
        onClick={onClick}
      >
        <svg width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} aria-hidden="true">
          <defs>
            <pattern id={hatchId} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
              <line x1="0" y1="0" x2="0" y2="6" className="record-timeline__hatch-line" />
            </pattern>
          </defs>
          <rect
            className="record-timeline__plot"
            x={TIMELINE_MARGIN.left}
            y={PLOT.top}
            width={plotRight - TIMELINE_MARGIN.left}
            height={PLOT.bottom - PLOT.top}
          />
          {shapes.map((shape, index) => {
            const { kind, row, episode } = shape;
            const title = (
              <title>{`${kindName(kind)} ${formatHms(episode.start_s)} – ${formatHms(episode.end_s)}`}</title>
            );
            const common = {
              className: `record-timeline__episode record-timeline__episode--${kind}`,
              'data-episode': kind,
              'data-start': episode.start_s,
            };
            if (row === 'tick') {
              return (
                // Episodes have no identity of their own; their place in the sorted list is it.
                <g key={index} {...common}>
                  {title}
                  <line x1={shape.x} x2={shape.x} y1={TICK_ROW.top} y2={PLOT.bottom} />
                  <path
                    d={`M${shape.x - 3} ${TICK_ROW.top} L${shape.x + 3} ${TICK_ROW.top} L${shape.x} ${TICK_ROW.bottom} Z`}
                  />
                </g>
              );
            }
            const band = row === 'rate' ? RATE_ROW : PLOT;
            return (
              <rect
                key={index}
                {...common}
                x={shape.x}
                width={shape.width}
                y={band.top}
                height={band.bottom - band.top}
                fill={kind === 'noisy' ? `url(#${hatchId})` : undefined}
              >
                {title}
              </rect>
            );
          })}
          <path className="record-timeline__trend" d={trend} data-testid="timeline-trend" />
          <text className="record-timeline__label" x={TIMELINE_MARGIN.left - 4} y={PLOT.top + 4} textAnchor="end">
            {hi}
          </text>
          <text className="record-timeline__label" x={TIMELINE_MARGIN.left - 4} y={PLOT.bottom} textAnchor="end">
            {lo}
          </text>
          <rect
            className="record-timeline__window"
            data-testid="timeline-window"
            x={windowX}
            width={windowWidth}
            y={TICK_ROW.top}
            height={PLOT.bottom - TICK_ROW.top}
          />
          {ticks.map((tick) => (
            <g key={tick}>
              <line className="record-timeline__tick" x1={x(tick)} x2={x(tick)} y1={PLOT.bottom} y2={PLOT.bottom + 4} />
              <text
                className="record-timeline__label"
                x={x(tick)}
                y={HEIGHT - 4}
                textAnchor={tick === 0 ? 'start' : 'middle'}
              >
                {formatHms(tick)}
              </text>
            </g>
          ))}
        </svg>
      </div>
      <ul className="record-timeline__legend">
        <li>
          <span className="record-timeline__swatch record-timeline__swatch--trend" aria-hidden="true" />
          {t('wholeRecord.heartRate')}
        </li>
        {present.map((kind) => (
          <li key={kind}>
            <span className={`record-timeline__swatch record-timeline__swatch--${kind}`} aria-hidden="true" />
            {kindName(kind)}
          </li>
        ))}
        <li>
          <span className="record-timeline__swatch record-timeline__swatch--window" aria-hidden="true" />
          {t('wholeRecord.window')}
        </li>
      </ul>
      <p className="record-timeline__hint muted" id={`${ids}-hint`}>
        {t('wholeRecord.timelineHint')}
      </p>
      {episodes === null ? <p className="record-timeline__note muted">{t('wholeRecord.notComputed')}</p> : null}
    </div>
  );
}
