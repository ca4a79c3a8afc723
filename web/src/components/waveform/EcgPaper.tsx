import { useEffect, useMemo, useRef } from 'react';
import type { WaveformView } from '../../api/client';
import { useResolvedTheme } from '../../lib/theme';
import { columnsForTime, drawCalibration, drawColumns, drawPaper, median, prepareCanvas, readPalette } from './draw';
import {
  CALIBRATION_MARGIN_MM,
  CALIBRATION_X_MM,
  ecgLabelFontPx,
  GAIN_MM_PER_MV,
  leadLabelPlace,
  marksInView,
  PAPER_SPEED_MM_PER_S,
  TWELVE_LEAD_COLUMNS,
  TWELVE_LEAD_SEGMENT_S,
} from './geometry';

/** Height of one lead's row, millimetres (±1.5 mV around the baseline). */
const ROW_MM = 30;
/** Where the baseline sits in a row, from its top, millimetres (R waves point up). */
const BASELINE_MM = 18;

export type EcgLayout = 'leads' | 'twelve';

interface Row {
  channel: number;
  label: string;
  /** Segments of the row: time range and x offset from the trace start, seconds. */
  segments: { from: number; to: number; channel: number; label: string }[];
}

function rowsFor(data: WaveformView, layout: EcgLayout, from: number, span: number, twelve: number[][] | null): Row[] {
  if (layout === 'twelve' && twelve) {
    const rows: Row[] = [0, 1, 2].map((r) => ({
      channel: twelve[0]?.[r] ?? 0,
      label: '',
      segments: TWELVE_LEAD_COLUMNS.map((column, c) => ({
        from: from + c * TWELVE_LEAD_SEGMENT_S,
        to: from + (c + 1) * TWELVE_LEAD_SEGMENT_S,
        channel: twelve[c]?.[r] ?? 0,
        label: column[r] ?? '',
      })),
    }));
    // The rhythm strip: the analysed lead across the whole 10 s.
    const rhythm = data.analysed_channel;
    rows.push({
      channel: rhythm,
      label: data.channels[rhythm]?.name ?? '',
      segments: [{ from, to: from + span, channel: rhythm, label: data.channels[rhythm]?.name ?? '' }],
    });
    return rows;
  }
  return data.channels.map((channel, i) => ({
    channel: i,
    label: channel.name,
    segments: [{ from, to: from + span, channel: i, label: channel.name }],
  }));
}

/** Pixel size of the paper for `rows` rows of `span` seconds. */
export function paperSize(span: number, rows: number, pxPerMm: number) {
  return {
    width: Math.round((CALIBRATION_MARGIN_MM + span * PAPER_SPEED_MM_PER_S) * pxPerMm),
    height: Math.round(rows * ROW_MM * pxPerMm),
  };
}

/**
 * ECG on standard paper: 25 mm/s, 10 mm/mV, 1 mm and 5 mm grid, a 1 mV calibration pulse at the
 * start of every row, R peaks of the analysed lead marked above its trace. `leads` stacks every
 * channel; `twelve` is the standard 3 x 4 arrangement of 2.5 s segments with a 10 s rhythm strip.
 */
export function EcgPaper({
  data,
  from,
  span,
  pxPerMm,
  layout,
  twelve,
  label,
}: {
  data: WaveformView;
  from: number;
  span: number;
  pxPerMm: number;
  layout: EcgLayout;
  twelve: number[][] | null;
  label: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  // Colours come from the theme's CSS variables: draw again when it changes.
  const theme = useResolvedTheme();
  const rows = useMemo(() => rowsFor(data, layout, from, span, twelve), [data, layout, from, span, twelve]);
  const size = paperSize(span, rows.length, pxPerMm);

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const context = prepareCanvas(element, size.width, size.height);
    if (!context) return;
    const palette = readPalette(element);
    drawPaper(context, palette, { x: 0, y: 0, width: size.width, height: size.height }, pxPerMm);
    const x0 = CALIBRATION_MARGIN_MM * pxPerMm;
    const pxPerS = PAPER_SPEED_MM_PER_S * pxPerMm;
    const pxPerMv = GAIN_MM_PER_MV * pxPerMm;
    const rate = data.sampling_rate_hz;
    context.font = `${ecgLabelFontPx(pxPerMm)}px system-ui, sans-serif`;
    const labelAt = leadLabelPlace(pxPerMm, BASELINE_MM);
    rows.forEach((row, r) => {
      const top = r * ROW_MM * pxPerMm;
      const baseline = top + BASELINE_MM * pxPerMm;
      drawCalibration(context, palette, CALIBRATION_X_MM * pxPerMm, baseline, pxPerMm);
      // The row's first lead is named in the margin, above its calibration pulse; a later segment
      // of the 12-lead layout just after the boundary that starts it.
      context.fillStyle = palette.text;
      const first = row.segments[0];
      if (first) context.fillText(first.label, labelAt.x, top + labelAt.y, labelAt.maxWidth);
      context.save();
      context.beginPath();
      context.rect(x0, top, size.width - x0, ROW_MM * pxPerMm);
      context.clip();
      for (const segment of row.segments) {
        const samples = data.channels[segment.channel]?.samples ?? [];
        const offset = (segment.from - from) * pxPerS;
        const widthPx = (segment.to - segment.from) * pxPerS;
        const fromIndex = Math.max(0, Math.floor((segment.from - data.start_s) * rate));
        const toIndex = Math.max(fromIndex, Math.ceil((segment.to - data.start_s) * rate));
        const level = median(samples.slice(fromIndex, toIndex));
        const columns = columnsForTime(samples, rate, data.start_s, segment.from, segment.to, widthPx);
        drawColumns(context, columns, x0 + offset, (v) => baseline - (v - level) * pxPerMv, palette.trace);
        if (offset > 0) {
          context.fillStyle = palette.text;
          context.fillText(segment.label, x0 + offset + 4, top + 4 * pxPerMm);
          // The boundary between two 2.5 s segments, as printed 12-lead reports show it.
          context.strokeStyle = palette.trace;
          context.lineWidth = 1;
          context.beginPath();
          context.moveTo(x0 + offset, baseline - 3 * pxPerMm);
          context.lineTo(x0 + offset, baseline + 3 * pxPerMm);
          context.stroke();
        }
        if (segment.channel === data.analysed_channel) {
          context.fillStyle = palette.markA;
          for (const t of marksInView(data.beats_s, segment.from, segment.to)) {
            const x = x0 + offset + (t - segment.from) * pxPerS;
            const y = top + 6 * pxPerMm;
            context.beginPath();
            context.moveTo(x - 3, y - 5);
            context.lineTo(x + 3, y - 5);
            context.lineTo(x, y);
            context.closePath();
            context.fill();
          }
        }
      }
      context.restore();
    });
  }, [data, rows, from, pxPerMm, size.width, size.height, theme]);

  return (
    <canvas
      ref={canvas}
      className="waveform__canvas"
      width={size.width}
      height={size.height}
      role="img"
      aria-label={label}
      data-rows={rows.length}
      data-beats-in-view={marksInView(data.beats_s, from, from + span).length}
    />
  );
}
