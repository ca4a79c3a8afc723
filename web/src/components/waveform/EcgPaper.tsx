/**
 * ECG paper on a canvas (grid, a 1 mV calibration pulse per row, traces, R marks, lead labels) in
 * any layout (a long ECG's R marks coloured by beat class, S or V written above ectopic beats), of `paperLayout.ts`, at the chosen speed and gain, with the 12-lead reading's
 * fiducials and lead marks over it when asked for, and the calipers' layer on top.
 */
import { useEffect, useMemo, useRef } from 'react';
import type { WaveformView } from '../../api/client';
import { useResolvedTheme } from '../../lib/theme';
import { classedMarks, classLetter } from './beatClasses';
import { CaliperLayer } from './CaliperLayer';
import { FiducialLayer } from './FiducialLayer';
import { fiducialLines, leadTicks, snapTargets } from './fiducials';
import { caliperFrame, type Caliper } from './calipers';
import { columnsForTime, drawCalibration, drawColumns, drawPaper, median, prepareCanvas, readPalette } from './draw';
import { calibrationMarginMm, marksInView, type PaperSettings } from './geometry';
import { ecgLabelFontPx, labelBox, layoutRows, paperSize, rowMetrics, type EcgLayout } from './paperLayout';

/** The calipers' state, owned by the viewer (which also moves them from the keyboard). */
export interface CaliperState {
  enabled: boolean;
  caliper: Caliper | null;
  march: boolean;
  onChange: (caliper: Caliper | null) => void;
}

/** Which of the 12-lead reading's marks are shown. */
export interface MarkChoices {
  fiducials: boolean;
  leadMarks: boolean;
}

/**
 * ECG on paper at `paper`'s speed and gain, 1 mm and 5 mm grid, a 1 mV calibration pulse at the
 * start of every row, R peaks of the analysed lead marked above its trace, each segment's lead
 * named right of the pulse at the top of its row.
 */
export function EcgPaper({
  data,
  from,
  span,
  pxPerMm,
  paper,
  layout,
  twelve,
  label,
  calipers,
  marks = { fiducials: false, leadMarks: false },
}: {
  data: WaveformView;
  from: number;
  span: number;
  pxPerMm: number;
  paper: PaperSettings;
  layout: EcgLayout;
  twelve: number[][] | null;
  label: string;
  calipers: CaliperState;
  marks?: MarkChoices;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  // Colours come from the theme's CSS variables: draw again when it changes.
  const theme = useResolvedTheme();
  const rows = useMemo(
    () =>
      layoutRows(
        layout,
        data.channels.map((c) => c.name),
        data.analysed_channel,
        from,
        span,
        twelve,
      ),
    [data, layout, from, span, twelve],
  );
  const size = paperSize(span, rows.length, pxPerMm, paper);
  const frame = caliperFrame(from, pxPerMm, paper, rows.length);
  const ecg12 = data.ecg12 ?? null;
  const lines = ecg12 && marks.fiducials ? fiducialLines(ecg12.global_beats, frame, span) : [];
  const ticks =
    ecg12 && marks.leadMarks
      ? leadTicks(
          ecg12.lead_marks,
          rows,
          data.channels.map((c) => c.name),
          frame,
        )
      : [];

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const context = prepareCanvas(element, size.width, size.height);
    if (!context) return;
    const palette = readPalette(element);
    drawPaper(context, palette, { x: 0, y: 0, width: size.width, height: size.height }, pxPerMm);
    const x0 = calibrationMarginMm(paper.speedMmPerS) * pxPerMm;
    const pxPerS = paper.speedMmPerS * pxPerMm;
    const pxPerMv = paper.gainMmPerMv * pxPerMm;
    const metrics = rowMetrics(pxPerMm, paper);
    const rate = data.sampling_rate_hz;
    context.font = `${ecgLabelFontPx(pxPerMm)}px system-ui, sans-serif`;
    context.textBaseline = 'top';
    rows.forEach((row, r) => {
      const top = r * metrics.height;
      const baseline = top + metrics.baseline;
      drawCalibration(context, palette, top, pxPerMm, paper);
      context.save();
      context.beginPath();
      context.rect(x0, top, size.width - x0, metrics.height);
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
        // Each segment's lead is named at the top of the row, right of the calibration pulse.
        const name = labelBox(top, offset, pxPerMm, paper);
        context.fillStyle = palette.text;
        context.fillText(segment.label, name.x, name.y, name.width);
        if (offset > 0) {
          // The boundary between two segments, as printed 12-lead reports show it.
          context.strokeStyle = palette.trace;
          context.lineWidth = 1;
          context.beginPath();
          context.moveTo(x0 + offset, baseline - 3 * pxPerMm);
          context.lineTo(x0 + offset, baseline + 3 * pxPerMm);
          context.stroke();
        }
        if (segment.channel === data.analysed_channel) {
          const y = name.y + name.height + 6;
          for (const { t, beatClass } of classedMarks(data.beats_s, data.beat_classes, segment.from, segment.to)) {
            const x = x0 + offset + (t - segment.from) * pxPerS;
            context.fillStyle =
              beatClass === 'v'
                ? palette.beatV
                : beatClass === 's'
                  ? palette.beatS
                  : beatClass === 'n'
                    ? palette.beatN
                    : palette.markA;
            const letter = classLetter(beatClass);
            if (letter) {
              context.save();
              context.textAlign = 'center';
              context.textBaseline = 'bottom';
              context.fillText(letter, x, y - 6);
              context.restore();
            }
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
  }, [data, rows, from, pxPerMm, paper, size.width, size.height, theme]);

  // The canvas stays the viewport's child (focus and scrolling are the viewport's); the calipers'
  // layer lies over it, positioned in the viewport.
  return (
    <>
      <canvas
        ref={canvas}
        className="waveform__canvas"
        width={size.width}
        height={size.height}
        role="img"
        aria-label={label}
        data-rows={rows.length}
        data-labels={rows.map((row) => row.segments.map((segment) => segment.label).join(',')).join('|')}
        data-beats-in-view={marksInView(data.beats_s, from, from + span).length}
        data-ectopic-in-view={
          classedMarks(data.beats_s, data.beat_classes, from, from + span).filter((m) => classLetter(m.beatClass))
            .length
        }
      />
      {lines.length > 0 || ticks.length > 0 ? (
        <FiducialLayer
          lines={lines}
          ticks={ticks}
          width={size.width}
          height={size.height}
          rowHeight={frame.rowHeight}
          pxPerMm={pxPerMm}
        />
      ) : null}
      <CaliperLayer
        frame={frame}
        span={span}
        width={size.width}
        height={size.height}
        enabled={calipers.enabled}
        caliper={calipers.caliper}
        march={calipers.march}
        snapTo={snapTargets(lines)}
        onChange={calipers.onChange}
      />
    </>
  );
}
