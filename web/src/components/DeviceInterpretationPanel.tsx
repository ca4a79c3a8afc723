import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeviceInterpretation } from '../api/client';

/** The measurement keys the server's readers use, each with a translated name. */
const MEASUREMENT_KEYS = [
  'heart_rate_bpm',
  'atrial_rate_bpm',
  'pr_ms',
  'qrs_ms',
  'qt_ms',
  'qtc_ms',
  'p_ms',
  'rr_ms',
  'pp_ms',
  'p_axis_deg',
  'qrs_axis_deg',
  't_axis_deg',
] as const;

type MeasurementKey = (typeof MEASUREMENT_KEYS)[number];

function isMeasurementKey(key: string): key is MeasurementKey {
  return (MEASUREMENT_KEYS as readonly string[]).includes(key);
}

/** A value with its unit as the device gave it (a degree sign right after the number). */
function measurementText(value: number, unit: string, language: string): string {
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(value);
  if (!unit) return number;
  return unit === '°' ? `${number}°` : `${number} ${unit}`;
}

/**
 * The recording device's own interpretation of an ECG (a cart's or an app's statements and
 * measurements), shown beside Cardio's result and never mixed into it: its source, its statements
 * in its own words (not translated), and its measurements under translated names. Nothing when the
 * file carried none.
 */
export function DeviceInterpretationPanel({
  device,
  className = 'device-interpretation',
  headingLevel = 2,
}: {
  device: DeviceInterpretation | null | undefined;
  className?: string;
  headingLevel?: 2 | 3;
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  if (!device) return null;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const language = i18n.resolvedLanguage ?? i18n.language ?? 'en';
  return (
    <section className={className} aria-labelledby={`${id}-title`}>
      <Heading id={`${id}-title`} className="section__title">
        {t('deviceInterpretation.title')}
      </Heading>
      <p className="muted">{t('deviceInterpretation.note')}</p>
      <dl className="device-interpretation__source">
        <dt>{t('deviceInterpretation.source')}</dt>
        <dd>{device.source}</dd>
      </dl>
      {device.statements.length > 0 ? (
        <>
          <p className="device-interpretation__subtitle" id={`${id}-statements`}>
            {t('deviceInterpretation.statements')}
          </p>
          <ul className="device-interpretation__statements" aria-labelledby={`${id}-statements`}>
            {device.statements.map((statement, index) => (
              // Statements may repeat; their position is their identity.
              <li key={index}>
                <q>{statement}</q>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {device.measurements.length > 0 ? (
        <div className="table-wrap">
          <table className="table table--dense device-interpretation__table">
            <caption className="device-interpretation__subtitle">{t('deviceInterpretation.measurements')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('deviceInterpretation.measurement')}</th>
                <th scope="col">{t('deviceInterpretation.value')}</th>
              </tr>
            </thead>
            <tbody>
              {device.measurements.map((m, index) => (
                <tr key={`${m.key}-${index}`}>
                  <th scope="row">{isMeasurementKey(m.key) ? t(`deviceInterpretation.labels.${m.key}`) : m.label}</th>
                  <td>{measurementText(m.value, m.unit, language)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
