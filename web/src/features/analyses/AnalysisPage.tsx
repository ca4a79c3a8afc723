import { ArrowLeft, Download } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ApiError, type Analysis } from '../../api/client';
import { paths, patientPath } from '../../app/paths';
import { PageHeader } from '../../components/PageHeader';
import { DeviceInterpretationPanel } from '../../components/DeviceInterpretationPanel';
import { PredictionResultView } from '../../components/PredictionResultView';
import { ReviewPanel } from '../../components/review/ReviewPanel';
import { Spinner } from '../../components/Spinner';
import { formatDateTime } from '../../lib/format';
import { modelName } from '../../lib/prediction';
import { ecg12Details } from '../../lib/ecg12';
import { useEcgStatements, useReview } from '../../lib/useReview';
import { useAnalysis } from './api';
import { AnalysisRecording } from './AnalysisRecording';
import { isSite } from '../../lib/auscultation';

/**
 * One stored analysis (Test Results' "View Details", the patient page's rows): who and when, the
 * recording's waveform with the detected beats (a long record's timeline and episodes around it),
 * and the full result as the results modal shows it.
 */
export function AnalysisPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const analysis = useAnalysis(id);
  const back = (
    <Link className="button button--secondary" to={paths.testResults}>
      <ArrowLeft size={16} aria-hidden="true" /> {t('analysisPage.back')}
    </Link>
  );

  if (analysis.isPending) return <Spinner label={t('app.loading')} />;
  if (analysis.isError) {
    const missing = analysis.error instanceof ApiError && analysis.error.status === 404;
    return (
      <div className="page">
        <div className="card" role="alert">
          <p>{missing ? t('analysisPage.notFound') : t('analysisPage.loadError')}</p>
          {back}
        </div>
      </div>
    );
  }

  const a = analysis.data;
  const type = modelName(a.modality);
  const device = a.result.device_interpretation;
  const actions = (
    <>
      <a
        className="button button--secondary"
        href={`/api/analyses/${encodeURIComponent(a.id)}/report.pdf`}
        download={`cardio-analysis-${a.id}.pdf`}
      >
        <Download size={16} aria-hidden="true" /> {t('common.downloadReport')}
      </a>
      {back}
    </>
  );
  return (
    <div className="page">
      <PageHeader title={t('analysisPage.title', { type })} subtitle={formatDateTime(a.createdAt)} actions={actions} />
      <div className="card">
        <dl className="test-card__facts">
          <div>
            <dt>{t('analysisPage.patient')}</dt>
            <dd>
              {a.patientId ? (
                <Link to={patientPath(a.patientId)}>{a.patientName ?? a.patientId}</Link>
              ) : (
                t('testResults.noPatient')
              )}
            </dd>
          </div>
          <div>
            <dt>{t('analysisPage.date')}</dt>
            <dd>{formatDateTime(a.createdAt)}</dd>
          </div>
          {a.fileName ? (
            <div>
              <dt>{t('analysisPage.file')}</dt>
              <dd>{a.fileName}</dd>
            </div>
          ) : null}
          {isSite(a.site) ? (
            <div>
              <dt>{t('sensor.sites.title')}</dt>
              <dd data-testid="analysis-site">
                {a.site} — {t(`sensor.sites.names.${a.site}`)}
              </dd>
            </div>
          ) : null}
          <div>
            <dt>{t('analysisPage.model')}</dt>
            <dd>
              {a.modelId} {a.modelVersion}
            </dd>
          </div>
        </dl>
      </div>
      {a.modality !== 'clinical' && a.files.length > 0 ? <AnalysisRecording analysis={a} /> : null}
      <div className={device ? 'analysis-results analysis-results--with-device' : 'analysis-results'}>
        <div className="card">
          <h2 className="section__title">{t('analysisPage.result')}</h2>
          <PredictionResultView result={a.result} review={a.review} episodes={false} />
        </div>
        <DeviceInterpretationPanel device={device} className="card device-interpretation" />
      </div>
      <div className="card">
        <AnalysisReview analysis={a} />
      </div>
    </div>
  );
}

/** The doctor's sign-off of this analysis; an ECG's confirms its interpretation too. */
function AnalysisReview({ analysis }: { analysis: Analysis }) {
  const review = useReview({ kind: 'analysis', id: analysis.id });
  const isEcg = analysis.modality === 'ecg';
  const options = useEcgStatements(isEcg);
  const computer = isEcg ? (ecg12Details(analysis.result.details)?.statements ?? []) : [];
  return <ReviewPanel review={review} ecg={isEcg ? { computer, options } : undefined} />;
}
