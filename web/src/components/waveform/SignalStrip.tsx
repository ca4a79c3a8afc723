import { useEffect, useRef } from 'react';
import type { WaveformView } from '../../api/client';
import { useResolvedTheme } from '../../lib/theme';
import { columnsForTime, drawColumns, median, prepareCanvas, readPalette } from './draw';
import { marksInView } from './geometry';
import { murmurSpans } from '../../lib/auscultation';

/** Height of the strip, CSS pixels. */
export const STRIP_HEIGHT = 220;
/** Room at the bottom for the seconds axis. */
const AXIS_PX = 20;

/** The sample value nearest to time `t` (for placing a pulse-peak dot on the trace). */
function valueAt(samples: readonly (number | null)[], rate: number, start: number, t: number): number | null {
  const value = samples[Math.round((t - start) * rate)];
  return value === undefined ? null : value;
}

/**
 * A heart-sound (PCG) or pulse (PPG) strip: the analysed channel scaled to the visible window,
 * S1 and S2 marked with labelled lines (PCG), the part of each systole where a murmur was heard
 * shaded, or pulse peaks with dots (PPG), seconds below.
 */
export function SignalStrip({
  data,
  from,
  span,
  width,
  label,
  murmurTiming = null,
}: {
  data: WaveformView;
  from: number;
  span: number;
  width: number;
  label: string;
  /** The timing of a murmur heard in this recording (PCG), shaded in each systole. */
  murmurTiming?: string | null;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  // Colours come from the theme's CSS variables: draw again when it changes.
  const theme = useResolvedTheme();
  const channel = data.channels[data.analysed_channel] ?? data.channels[0];

  useEffect(() => {
    const element = canvas.current;
    if (!element || !channel) return;
    const context = prepareCanvas(element, width, STRIP_HEIGHT);
    if (!context) return;
    const palette = readPalette(element);
    const style = getComputedStyle(element);
    const surface = style.getPropertyValue('--color-surface').trim() || '#ffffff';
    const border = style.getPropertyValue('--color-border').trim() || '#d5dce6';
    const muted = style.getPropertyValue('--color-text-muted').trim() || '#4a5a70';
    const trace = style.getPropertyValue('--color-text').trim() || '#0f1b2d';
    const plotHeight = STRIP_HEIGHT - AXIS_PX;
    context.fillStyle = surface;
    context.fillRect(0, 0, width, STRIP_HEIGHT);

    const rate = data.sampling_rate_hz;
    const samples = channel.samples;
    const fromIndex = Math.max(0, Math.floor((from - data.start_s) * rate));
    const toIndex = Math.max(fromIndex, Math.ceil((from + span - data.start_s) * rate));
    const visible = samples.slice(fromIndex, toIndex);
    const level = median(visible);
    const scale = Math.max(
      1e-12,
      ...visible.filter((v): v is number => v !== null && Number.isFinite(v)).map((v) => Math.abs(v - level)),
    );
    const middle = plotHeight / 2;
    const toY = (v: number) => middle - ((v - level) / scale) * (plotHeight / 2 - 10);
    const pxPerS = width / span;

    // Seconds: a light line and a label at every whole second in view.
    context.strokeStyle = border;
    context.fillStyle = muted;
    context.lineWidth = 1;
    context.font = '11px system-ui, sans-serif';
    context.beginPath();
    context.moveTo(0, middle + 0.5);
    context.lineTo(width, middle + 0.5);
    for (let s = Math.ceil(from); s < from + span; s += 1) {
      const x = Math.round((s - from) * pxPerS) + 0.5;
      context.moveTo(x, 0);
      context.lineTo(x, plotHeight);
      context.fillText(`${s} s`, x + 3, STRIP_HEIGHT - 6);
    }
    context.stroke();

    const shaded = data.kind === 'pcg' ? murmurSpans(data.s1_s, data.s2_s, murmurTiming) : [];
    context.fillStyle = palette.markA;
    context.globalAlpha = 0.16;
    for (const [a, b] of shaded) {
      if (b < from || a > from + span) continue;
      context.fillRect((a - from) * pxPerS, 0, (b - a) * pxPerS, plotHeight);
    }
    context.globalAlpha = 1;

    drawColumns(context, columnsForTime(samples, rate, data.start_s, from, from + span, width), 0, toY, trace, 1);

    if (data.kind === 'pcg') {
      const sounds: [readonly number[], string, string][] = [
        [data.s1_s, 'S1', palette.markA],
        [data.s2_s, 'S2', palette.markB],
      ];
      context.font = 'bold 11px system-ui, sans-serif';
      for (const [times, name, color] of sounds) {
        context.strokeStyle = color;
        context.fillStyle = color;
        context.lineWidth = 1.5;
        for (const t of marksInView(times, from, from + span)) {
          const x = Math.round((t - from) * pxPerS) + 0.5;
          context.beginPath();
          context.moveTo(x, 14);
          context.lineTo(x, plotHeight);
          context.stroke();
          context.fillText(name, x + 2, 11);
        }
      }
    } else {
      context.fillStyle = palette.markA;
      for (const t of marksInView(data.beats_s, from, from + span)) {
        const value = valueAt(samples, rate, data.start_s, t);
        if (value === null) continue;
        context.beginPath();
        context.arc((t - from) * pxPerS, toY(value), 4, 0, 2 * Math.PI);
        context.fill();
      }
    }
  }, [data, channel, from, span, width, theme, murmurTiming]);

  const marks = data.kind === 'pcg' ? data.s1_s.length + data.s2_s.length : data.beats_s.length;
  return (
    <canvas
      ref={canvas}
      className="waveform__canvas"
      width={width}
      height={STRIP_HEIGHT}
      role="img"
      aria-label={label}
      data-marks={marks}
      data-murmur-spans={data.kind === 'pcg' ? murmurSpans(data.s1_s, data.s2_s, murmurTiming).length : undefined}
    />
  );
}
