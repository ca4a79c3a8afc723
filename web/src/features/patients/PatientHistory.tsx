import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Analysis, ClinicalRecord, Screening } from '../../api/client';
import { analysisPath, paths, screeningPath } from '../../app/paths';
import { DataTable } from '../../components/DataTable';
import { ErrorBanner } from '../../components/ErrorBanner';
import { CombinedRiskBadge } from '../../components/RiskBadge';
import { Spinner } from '../../components/Spinner';
import { apiErrorMessage } from '../../lib/apiErrors';
import { formatDateTime, formatDay } from '../../lib/format';
import { modelName, percent, riskPercent } from '../../lib/prediction';
import { useClinicalHistory, usePatientAnalyses, usePatientScreenings } from './api';
import { findingText } from '../../lib/clinicalText';
import { isSite } from '../../lib/auscultation';

/**
 * The patient page's history sections (issue 3): clinical parameters, screenings and every stored
 * result, each loading, failing or empty on its own.
 */

function SectionBody<T>({
  query,
  empty,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data?: T[] };
  empty: string;
  children: (rows: T[]) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isPending) return <Spinner label={t('app.loading')} />;
  if (query.isError || !query.data) {
    return <ErrorBanner message={apiErrorMessage(query.error, t('patientDetail.loadSectionFailed'), t)} />;
  }
  if (query.data.length === 0) return <p className="muted">{empty}</p>;
  return <>{children(query.data)}</>;
}

/** A coded clinical value's code, or `undefined` when the value is not one of `codes`. */
function codeOf<K extends string>(value: number, codes: readonly K[]): K | undefined {
  return codes[value];
}

/** The optional values of an entry as "label: value" in the reader's language, '—' when none was entered. */
function optionalValues(p: ClinicalRecord['parameters'], t: TFunction): string {
  const coded = <K extends string>(
    value: number | null | undefined,
    codes: readonly K[],
    label: (code: K) => string,
  ) => {
    if (value === null || value === undefined) return null;
    const code = codeOf(value, codes);
    return code ? label(code) : String(value);
  };
  const parts: [string, string | null][] = [
    [t('clinicalParams.sex'), p.sex ? String(t(`clinicalParams.sexes.${p.sex}`)) : null],
    [t('clinicalParams.restingBloodPressure'), p.resting_blood_pressure?.toString() ?? null],
    [
      t('clinicalParams.restingEcg'),
      coded(p.resting_ecg, ['0', '1', '2'] as const, (c) => t(`clinicalParams.restingEcgOption.${c}`)),
    ],
    [t('clinicalParams.maxHeartRate'), p.max_heart_rate?.toString() ?? null],
    [t('clinicalParams.stDepression'), p.st_depression?.toString() ?? null],
    [
      t('clinicalParams.stSlope'),
      coded(p.st_slope, ['0', '1', '2'] as const, (c) => t(`clinicalParams.stSlopeOption.${c}`)),
    ],
  ];
  const entered = parts.filter(([, value]) => value !== null).map(([label, value]) => `${label}: ${value}`);
  return entered.length > 0 ? entered.join('; ') : '—';
}

export function ClinicalHistory({ patientId }: { patientId: string }) {
  const { t } = useTranslation();
  const history = useClinicalHistory(patientId);
  return (
    <section className="card list-card" aria-labelledby="patient-clinical">
      <h2 id="patient-clinical" className="section__title">
        {t('patientDetail.sections.clinical')}
      </h2>
      <SectionBody<ClinicalRecord> query={history} empty={t('patientDetail.noClinical')}>
        {(records) => (
          <DataTable<ClinicalRecord>
            caption={t('patientDetail.clinicalCaption')}
            rows={records}
            rowKey={(r) => r.id}
            columns={[
              { header: t('patientDetail.date'), cell: (r) => formatDateTime(r.createdAt), nowrap: true },
              { header: t('clinicalParams.age'), cell: (r) => r.parameters.age },
              {
                header: t('clinicalParams.chestPainType'),
                cell: (r) => {
                  const code = codeOf(r.parameters.chest_pain_type, ['0', '1', '2', '3'] as const);
                  return code ? t(`clinicalParams.chestPain.${code}`) : r.parameters.chest_pain_type;
                },
              },
              { header: t('clinicalParams.cholesterol'), cell: (r) => r.parameters.cholesterol },
              { header: t('clinicalParams.fastingBloodSugar'), cell: (r) => r.parameters.fasting_blood_sugar },
              {
                header: t('clinicalParams.exerciseInducedAngina'),
                cell: (r) => {
                  const code = codeOf(r.parameters.exercise_induced_angina, ['0', '1'] as const);
                  return code ? t(`clinicalParams.angina.${code}`) : r.parameters.exercise_induced_angina;
                },
              },
              { header: t('clinicalParams.vessels'), cell: (r) => r.parameters.vessels_colored_by_flourosopy },
              {
                header: t('clinicalParams.thalassemia'),
                cell: (r) => {
                  const code = codeOf(r.parameters.thalassemia, ['0', '1', '2'] as const);
                  return code ? t(`clinicalParams.thal.${code}`) : r.parameters.thalassemia;
                },
              },
              { header: t('patientDetail.moreValues'), cell: (r) => optionalValues(r.parameters, t) },
            ]}
          />
        )}
      </SectionBody>
    </section>
  );
}

export function Screenings({ patientId }: { patientId: string }) {
  const { t } = useTranslation();
  const screenings = usePatientScreenings(patientId);
  return (
    <section className="card list-card" aria-labelledby="patient-screenings">
      <h2 id="patient-screenings" className="section__title">
        {t('patientDetail.sections.screenings')}
      </h2>
      <SectionBody<Screening> query={screenings} empty={t('patientDetail.noScreenings')}>
        {(rows) => (
          <DataTable<Screening>
            caption={t('patientDetail.screeningsCaption')}
            rows={rows}
            rowKey={(s) => s.id}
            columns={[
              {
                header: t('patientDetail.screeningColumns.started'),
                cell: (s) => formatDateTime(s.createdAt),
                nowrap: true,
              },
              {
                header: t('patientDetail.screeningColumns.status'),
                cell: (s) => (
                  <span className="badge badge--info">
                    {s.status === 'draft'
                      ? t('patientDetail.screeningStatus.draft')
                      : s.status === 'completed'
                        ? t('patientDetail.screeningStatus.completed')
                        : t('patientDetail.screeningStatus.other', { status: s.status })}
                  </span>
                ),
              },
              {
                header: t('patientDetail.screeningColumns.clinical'),
                cell: (s) =>
                  s.clinical
                    ? `${t('patientDetail.clinicalRecorded')} (${formatDay(s.clinical.createdAt)})`
                    : t('patientDetail.clinicalMissing'),
              },
              {
                header: t('patientDetail.screeningColumns.result'),
                cell: (s) =>
                  s.combined ? (
                    <CombinedRiskBadge
                      combined={s.combined}
                      text={t('sensor.overallRisk', {
                        risk: percent(s.combined.risk_score),
                        driver: modelName(s.combined.driver),
                      })}
                    />
                  ) : (
                    t('patientDetail.notCombined')
                  ),
              },
              {
                header: t('patientDetail.screeningColumns.actions'),
                cell: (s) =>
                  s.combined ? (
                    <Link to={screeningPath(paths.sensorEcg, s.id)} className="button button--secondary button--small">
                      {t('patientDetail.viewResult')}
                    </Link>
                  ) : (
                    <Link
                      to={screeningPath(paths.clinicalData, s.id)}
                      className="button button--secondary button--small"
                    >
                      {t('patientDetail.continue')}
                    </Link>
                  ),
              },
            ]}
          />
        )}
      </SectionBody>
    </section>
  );
}

/** Every stored result of the patient's, each linked to its page (waveform and full result). */
export function Analyses({ patientId }: { patientId: string }) {
  const { t } = useTranslation();
  const analyses = usePatientAnalyses(patientId);
  return (
    <section className="card list-card" aria-labelledby="patient-analyses">
      <h2 id="patient-analyses" className="section__title">
        {t('patientDetail.sections.analyses')}
      </h2>
      <SectionBody<Analysis> query={analyses} empty={t('patientDetail.noAnalyses')}>
        {(rows) => (
          <DataTable<Analysis>
            caption={t('patientDetail.analysesCaption')}
            rows={rows}
            rowKey={(a) => a.id}
            columns={[
              { header: t('patientDetail.date'), cell: (a) => formatDateTime(a.createdAt), nowrap: true },
              { header: t('patientDetail.analysisColumns.model'), cell: (a) => modelName(a.modality) },
              {
                header: t('patientDetail.analysisColumns.result'),
                cell: (a) =>
                  isSite(a.site)
                    ? `${findingText(a.modality, a.result.label, a.result.prediction)} (${a.site})`
                    : findingText(a.modality, a.result.label, a.result.prediction),
              },
              {
                header: t('patientDetail.analysisColumns.risk'),
                cell: (a) => riskPercent(a.result.label, a.result.risk_score),
              },
              { header: t('patientDetail.analysisColumns.file'), cell: (a) => a.fileName ?? '—' },
              {
                header: t('patientDetail.screeningColumns.actions'),
                cell: (a) => (
                  <Link to={analysisPath(a.id)} className="button button--secondary button--small">
                    {t('patientDetail.viewResult')}
                  </Link>
                ),
              },
            ]}
          />
        )}
      </SectionBody>
    </section>
  );
}
