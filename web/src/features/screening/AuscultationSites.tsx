import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Analysis } from '../../api/client';
import { murmurWords } from '../../components/MurmurSummary';
import { SITES, SITE_POSITIONS, recordingMurmur, type Site } from '../../lib/auscultation';

interface AuscultationSitesProps {
  /** The site the next recording or upload is for. */
  selected: Site;
  onSelect: (site: Site) => void;
  /** The newest heart-sound analysis of each site recorded. */
  recorded: Partial<Record<Site, Analysis>>;
  /** No other site while a recording or upload is under way. */
  disabled: boolean;
}

/**
 * What a site shows: not recorded, not read by the murmur model, or its murmur verdict. A recording
 * too short for the normal/abnormal decision (2-5 s) is inconclusive for it but read for the murmur:
 * the site shows that murmur verdict, as the screening's verdict over the sites counts it.
 */
function siteStatus(analysis: Analysis | undefined, t: TFunction): string {
  if (!analysis) return t('sensor.sites.notRecorded');
  const murmur = recordingMurmur(analysis.result.details);
  if (!murmur || murmur.probability === null) return t('sensor.sites.inconclusive');
  return murmurWords(t, murmur.verdict, murmur.timing, murmur.grade);
}

/**
 * Where the stethoscope goes: a small chest diagram with the four auscultation sites (AV, PV, TV, MV)
 * and a button per site, each with what its newest recording found. The buttons are the keyboard's
 * way in; the diagram's marks select too.
 */
export function AuscultationSites({ selected, onSelect, recorded, disabled }: AuscultationSitesProps) {
  const { t } = useTranslation();
  return (
    <div className="auscultation">
      <h3 className="auscultation__title">{t('sensor.sites.title')}</h3>
      <p className="muted small">{t('sensor.sites.hint')}</p>
      <div className="auscultation__body">
        <svg className="auscultation__chest" viewBox="0 0 200 220" role="img" aria-label={t('sensor.sites.diagram')}>
          <path
            className="auscultation__torso"
            d="M40 20 Q100 0 160 20 L176 70 Q184 140 168 210 L32 210 Q16 140 24 70 Z"
          />
          <path className="auscultation__sternum" d="M100 28 L100 150" />
          <path
            className="auscultation__ribs"
            d="M48 58 Q100 74 152 58 M42 96 Q100 112 158 96 M40 134 Q100 150 160 134"
          />
          <path className="auscultation__heart" d="M92 92 Q120 78 150 104 Q160 140 128 160 Q104 150 92 130 Z" />
          {SITES.map((site) => {
            const { x, y } = SITE_POSITIONS[site];
            const state = site === selected ? 'selected' : recorded[site] ? 'recorded' : 'empty';
            return (
              <g
                key={site}
                className={`auscultation__mark auscultation__mark--${state}`}
                onClick={disabled ? undefined : () => onSelect(site)}
                aria-hidden="true"
              >
                <circle cx={x} cy={y} r={11} />
                <text x={x} y={y + 4} textAnchor="middle">
                  {site}
                </text>
              </g>
            );
          })}
        </svg>
        <ul className="auscultation__sites">
          {SITES.map((site) => (
            <li key={site}>
              <button
                type="button"
                className={`auscultation__site${site === selected ? ' auscultation__site--selected' : ''}`}
                aria-pressed={site === selected}
                disabled={disabled && site !== selected}
                onClick={() => onSelect(site)}
              >
                <span className="auscultation__code">{site}</span>{' '}
                <span className="auscultation__name">{t(`sensor.sites.names.${site}`)}</span>{' '}
                <span className="auscultation__status" data-testid={`site-status-${site}`}>
                  {siteStatus(recorded[site], t)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
