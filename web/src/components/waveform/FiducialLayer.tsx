/**
 * The 12-lead reading's marks over the ECG paper (an SVG the size of the canvas, under the
 * calipers' layer): the global fiducial lines across every row, each kind with its own dash
 * pattern, and each lead's own fiducials as small ticks at the foot of the segments that show it;
 * and the legend of the four kinds. Where things go is in `fiducials.ts`.
 */
import { useTranslation } from 'react-i18next';
import { FIDUCIAL_DASH, FIDUCIAL_KINDS, type FiducialLine, type LeadTick } from './fiducials';

export function FiducialLayer({
  lines,
  ticks,
  width,
  height,
  rowHeight,
  pxPerMm,
}: {
  lines: readonly FiducialLine[];
  ticks: readonly LeadTick[];
  width: number;
  height: number;
  rowHeight: number;
  pxPerMm: number;
}) {
  return (
    <svg className="fiducials" width={width} height={height} aria-hidden="true" data-testid="fiducial-layer">
      {lines.map((line) => (
        <line
          key={`${line.kind}-${line.t}`}
          className={`fiducials__line fiducials__line--${line.kind}`}
          data-testid="fiducial-line"
          data-kind={line.kind}
          data-t={line.t}
          x1={line.x}
          x2={line.x}
          y1={0}
          y2={height}
          strokeDasharray={FIDUCIAL_DASH[line.kind]}
        />
      ))}
      {ticks.map((tick) => {
        const bottom = (tick.row + 1) * rowHeight;
        return (
          <line
            key={`${tick.row}-${tick.lead}-${tick.kind}-${tick.t}`}
            className="fiducials__tick"
            data-testid="lead-mark"
            data-lead={tick.lead}
            data-kind={tick.kind}
            data-row={tick.row}
            data-t={tick.t}
            x1={tick.x}
            x2={tick.x}
            y1={bottom - 2.5 * pxPerMm}
            y2={bottom - 0.5 * pxPerMm}
          />
        );
      })}
    </svg>
  );
}

/** What each dash pattern means (when the lines are shown) and what the ticks are (when they are). */
export function FiducialLegend({ lines, ticks }: { lines: boolean; ticks: boolean }) {
  const { t } = useTranslation();
  return (
    <ul className="fiducials__legend small" aria-label={t('waveform.fiducialLegend')} data-testid="fiducial-legend">
      {lines
        ? FIDUCIAL_KINDS.map((kind) => (
            <li key={kind}>
              <svg width={28} height={10} aria-hidden="true">
                <line
                  className="fiducials__swatch"
                  x1={0}
                  x2={28}
                  y1={5}
                  y2={5}
                  strokeDasharray={FIDUCIAL_DASH[kind]}
                />
              </svg>
              {t(`waveform.fiducialKinds.${kind}`)}
            </li>
          ))
        : null}
      {ticks ? (
        <li>
          <svg width={10} height={10} aria-hidden="true">
            <line className="fiducials__swatch fiducials__swatch--tick" x1={5} x2={5} y1={0} y2={10} />
          </svg>
          {t('waveform.leadMarksLegend')}
        </li>
      ) : null}
    </ul>
  );
}
