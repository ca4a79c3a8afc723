/**
 * The median-beat panel: every lead's median complex on ECG paper (1 mm and 5 mm grid) at the
 * page's speed and gain, three rows high as the 3 x 4 page, each labelled with its lead and crossed
 * by the global fiducial lines the measurements rest on (dash patterns as on the paper). An SVG,
 * coloured by the theme's variables, so it reads in light and dark. Layout in `medianLayout.ts`.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FIDUCIAL_DASH } from './fiducials';
import type { PaperSettings } from './geometry';
import { ecgLabelFontPx } from './paperLayout';
import { medianLayout, type MedianView } from './medianLayout';

export function MedianPanel({ median, pxPerMm, paper }: { median: MedianView; pxPerMm: number; paper: PaperSettings }) {
  const { t } = useTranslation();
  const grid = `median-grid-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const layout = medianLayout(median, pxPerMm, paper);
  const major = 5 * pxPerMm;
  const font = ecgLabelFontPx(pxPerMm);
  const minorLines = [1, 2, 3, 4].map((mm) => mm * pxPerMm);
  return (
    <figure className="median-panel" data-testid="median-panel">
      <figcaption className="median-panel__title">{t('waveform.medianTitle')}</figcaption>
      <div className="median-panel__scroll">
        <svg
          width={Math.ceil(layout.width)}
          height={Math.ceil(layout.height)}
          role="img"
          aria-label={t('waveform.medianLabel', { speed: paper.speedMmPerS, gain: paper.gainMmPerMv })}
        >
          <defs>
            <pattern id={grid} width={major} height={major} patternUnits="userSpaceOnUse">
              {minorLines.map((at) => (
                <g key={at} className="median-panel__minor">
                  <line x1={at} x2={at} y1={0} y2={major} />
                  <line x1={0} x2={major} y1={at} y2={at} />
                </g>
              ))}
              <path className="median-panel__major" d={`M ${major} 0 L 0 0 0 ${major}`} />
            </pattern>
          </defs>
          <rect className="median-panel__paper" x={0} y={0} width={layout.width} height={layout.height} />
          <rect x={0} y={0} width={layout.width} height={layout.height} fill={`url(#${grid})`} />
          {layout.cells.map((cell) => (
            <g key={cell.lead} className="median-panel__cell" data-testid="median-cell" data-lead={cell.lead}>
              <rect className="median-panel__border" x={cell.x} y={cell.y} width={cell.width} height={cell.height} />
              {layout.fiducials.map((f) => (
                <line
                  key={f.kind}
                  className={`fiducials__line fiducials__line--${f.kind}`}
                  data-testid="median-fiducial"
                  data-kind={f.kind}
                  data-t={f.t}
                  x1={cell.x + f.dx}
                  x2={cell.x + f.dx}
                  y1={cell.y}
                  y2={cell.y + cell.height}
                  strokeDasharray={FIDUCIAL_DASH[f.kind]}
                />
              ))}
              {cell.paths.map((points) => (
                <polyline key={points.split(' ', 1)[0]} className="median-panel__trace" points={points} />
              ))}
              <text
                className="median-panel__label"
                data-testid="median-label"
                x={cell.x + pxPerMm}
                y={cell.y + pxPerMm + font}
                fontSize={font}
              >
                {cell.lead}
              </text>
            </g>
          ))}
        </svg>
      </div>
    </figure>
  );
}
