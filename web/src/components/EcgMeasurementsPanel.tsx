import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  capitalised,
  notMeasuredReasons,
  STANDARD_LEADS,
  whyNotMeasured,
  type Ecg12Details,
  type NotMeasured,
} from '../lib/ecg12';

type Unit = 'bpm' | 'ms' | 'mv' | 'deg';

/** The QTc formulas in the order the carts print them. */
const FORMULAS = ['bazett', 'fridericia', 'framingham', 'hodges'] as const;
type Formula = (typeof FORMULAS)[number];

function isFormula(value: unknown): value is Formula {
  return (FORMULAS as readonly unknown[]).includes(value);
}

/**
 * Cardio's measurements of a 12-lead (or 6- or 1-lead) ECG's median beat, as a cart prints them:
 * rate, RR, P, PR, QRS, QT, QTc with its formula (the other formulas below it), the P/QRS/T axes,
 * the voltage indices and the leads used. A value that could not be measured says why when the
 * result names the reason, else shows a dash.
 */
export function EcgMeasurementsPanel({ ecg, headingLevel = 3 }: { ecg: Ecg12Details; headingLevel?: 2 | 3 }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const language = i18n.resolvedLanguage ?? i18n.language ?? 'en';
  const numbers = new Intl.NumberFormat(language, { maximumFractionDigits: 2, useGrouping: false });
  const m = ecg.measurements;
  const reasons = notMeasuredReasons(ecg.notMeasured);

  const number = (key: string): number | null => {
    const value = m[key];
    return typeof value === 'number' && Number.isFinite(value) ? value : null;
  };
  const withUnit = (value: number, unit: Unit) => t(`ecgMeasurements.units.${unit}`, { value: numbers.format(value) });
  /** A value with its unit, or why it is missing, or a dash. */
  const cell = (key: string, unit: Unit): ReactNode => {
    const value = number(key);
    if (value !== null) return withUnit(value, unit);
    return <Missing why={whyNotMeasured(reasons, key)} />;
  };

  const shown: Formula = isFormula(m.qtc_shown) ? m.qtc_shown : 'bazett';
  const others = FORMULAS.filter((f) => f !== shown)
    .map((f) => ({ f, value: number(`qtc_${f}_ms`) }))
    .filter((o): o is { f: Formula; value: number } => o.value !== null)
    .map((o) => `${t(`ecgMeasurements.formulas.${o.f}`)} ${withUnit(o.value, 'ms')}`);

  const leadsText = (): string => {
    const all = STANDARD_LEADS.every((lead) => ecg.leadsUsed.includes(lead));
    if (all) return t('ecgMeasurements.leadsAll', { count: ecg.leadsUsed.length });
    return t('ecgMeasurements.leadsSome', { count: ecg.leadsUsed.length, leads: ecg.leadsUsed.join(', ') });
  };

  const rows: { key: string; label: string; value: ReactNode; more?: ReactNode }[] = [
    { key: 'rate', label: t('ecgMeasurements.rate'), value: cell('heart_rate_bpm', 'bpm') },
    { key: 'rr', label: t('ecgMeasurements.rr'), value: cell('rr_ms', 'ms') },
    { key: 'p', label: t('ecgMeasurements.p'), value: cell('p_ms', 'ms') },
    { key: 'pr', label: t('ecgMeasurements.pr'), value: cell('pr_ms', 'ms') },
    { key: 'qrs', label: t('ecgMeasurements.qrs'), value: cell('qrs_ms', 'ms') },
    { key: 'qt', label: t('ecgMeasurements.qt'), value: cell('qt_ms', 'ms') },
    {
      key: 'qtc',
      label: t('ecgMeasurements.qtc', { formula: t(`ecgMeasurements.formulas.${shown}`) }),
      value: cell(`qtc_${shown}_ms`, 'ms'),
      more: others.length > 0 ? t('ecgMeasurements.otherFormulas', { list: others.join(' · ') }) : null,
    },
    { key: 'axes', label: t('ecgMeasurements.axes'), value: <Axes number={number} reasons={reasons} /> },
    { key: 'sokolow', label: t('ecgMeasurements.sokolow'), value: cell('sokolow_lyon_mv', 'mv') },
    { key: 'cornell', label: t('ecgMeasurements.cornell'), value: cell('cornell_mv', 'mv') },
  ];
  if (ecg.leadsUsed.length > 0) rows.push({ key: 'leads', label: t('ecgMeasurements.leads'), value: leadsText() });

  return (
    <section className="ecg-measurements" aria-labelledby={`${id}-title`}>
      <Heading id={`${id}-title`} className="ecg-panel__title">
        {t('ecgMeasurements.title')}
      </Heading>
      <div className="table-wrap ecg-measurements__wrap">
        <table className="table table--dense ecg-measurements__table" aria-labelledby={`${id}-title`}>
          <thead className="visually-hidden">
            <tr>
              <th scope="col">{t('ecgMeasurements.measurement')}</th>
              <th scope="col">{t('ecgMeasurements.value')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                <th scope="row">{row.label}</th>
                <td>
                  {row.value}
                  {row.more ? <span className="ecg-measurements__more">{row.more}</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** A value that is not there: why, when the result says, else a dash. */
function Missing({ why }: { why: string | null }) {
  const { t } = useTranslation();
  if (!why) return <span title={t('ecgMeasurements.notMeasuredShort')}>—</span>;
  return (
    <span className="ecg-measurements__why">{capitalised(t('ecgMeasurements.notMeasured', { reason: why }))}</span>
  );
}

const AXES = ['p_axis_deg', 'qrs_axis_deg', 't_axis_deg'] as const;

/** "−40° / −25° / 6°", a dash for an axis not measured, and the reasons once below. */
function Axes({ number, reasons }: { number: (key: string) => number | null; reasons: NotMeasured[] }) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language ?? 'en';
  const numbers = new Intl.NumberFormat(language, { maximumFractionDigits: 0, useGrouping: false });
  const values = AXES.map((key) => number(key));
  const why = [
    ...new Set(
      AXES.filter((_, i) => values[i] === null)
        .map((key) => whyNotMeasured(reasons, key))
        .filter((r): r is string => r !== null),
    ),
  ];
  if (values.every((v) => v === null)) {
    return <Missing why={why[0] ?? null} />;
  }
  return (
    <>
      {values.map((v) => (v === null ? '—' : t('ecgMeasurements.units.deg', { value: numbers.format(v) }))).join(' / ')}
      {why.map((reason) => (
        <span key={reason} className="ecg-measurements__more">
          {capitalised(t('ecgMeasurements.notMeasured', { reason }))}
        </span>
      ))}
    </>
  );
}
