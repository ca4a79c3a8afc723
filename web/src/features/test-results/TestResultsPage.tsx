import { Activity, ClipboardList, Download, Stethoscope, Waves } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { analysisPath } from '../../app/paths';
import type { Analysis } from '../../api/client';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { Spinner } from '../../components/Spinner';
import { formatDateTime } from '../../lib/format';
import { modelName } from '../../lib/prediction';
import { useAnalyses, type SignalType } from './api';
import { heartRate, testStatus } from './status';
import { findingText } from '../../lib/clinicalText';

const FILTERS = ['all', 'pcg', 'ppg', 'ecg'] as const;
type Filter = (typeof FILTERS)[number];

const ICONS = {
  ecg: <Activity size={22} />,
  pcg: <Stethoscope size={22} />,
  ppg: <Waves size={22} />,
} as const;

const BADGES = { normal: 'badge--success', abnormal: 'badge--danger', review: 'badge--warning' } as const;

function isSignal(modality: Analysis['modality']): modality is SignalType {
  return modality !== 'clinical';
}

function ResultCard({ analysis }: { analysis: Analysis }) {
  const { t } = useTranslation();
  if (!isSignal(analysis.modality)) return null;
  const status = testStatus(analysis.result.label);
  const bpm = heartRate(analysis);
  return (
    <li className="card test-card">
      <div className="test-card__header">
        <span className="model-card__icon" aria-hidden="true">
          {ICONS[analysis.modality]}
        </span>
        <div>
          <h2 className="test-card__title">{t('testResults.analysisTitle', { type: modelName(analysis.modality) })}</h2>
          <p className="muted">{analysis.patientName ?? t('testResults.noPatient')}</p>
        </div>
        <span className={`badge ${BADGES[status]}`}>{t(`testResults.status.${status}`)}</span>
      </div>
      <dl className="test-card__facts">
        <div>
          <dt>{t('testResults.date')}</dt>
          <dd>{formatDateTime(analysis.createdAt)}</dd>
        </div>
        <div>
          <dt>{t('testResults.heartRate')}</dt>
          <dd>{bpm === null ? t('testResults.notMeasured') : t('testResults.bpm', { value: Math.round(bpm) })}</dd>
        </div>
        <div className="test-card__findings">
          <dt>{t('testResults.findings')}</dt>
          <dd>{findingText(analysis.modality, analysis.result.label, analysis.result.prediction)}</dd>
        </div>
        <div className="test-card__findings">
          <dt>{t('review.title')}</dt>
          <dd>
            {analysis.review
              ? `${t('review.reviewed')}: ${t(`review.verdict.${analysis.review.agreement}`)}`
              : t('review.pending')}
          </dd>
        </div>
      </dl>
      <div className="form-actions">
        <Link className="button button--secondary" to={analysisPath(analysis.id)}>
          {t('testResults.viewDetails')}
        </Link>
        <a
          className="button button--secondary"
          href={`/api/analyses/${encodeURIComponent(analysis.id)}/report.pdf`}
          download={`cardio-analysis-${analysis.id}.pdf`}
        >
          <Download size={16} aria-hidden="true" /> {t('testResults.downloadReport')}
        </a>
      </div>
    </li>
  );
}

/** Test Results (spec §2): a doctor's stored signal analyses. */
export function TestResultsPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<Filter>('all');
  const analyses = useAnalyses(filter === 'all' ? undefined : filter);

  let body;
  if (analyses.isPending) {
    body = <Spinner label={t('app.loading')} />;
  } else if (analyses.isError) {
    body = <p className="muted">{t('testResults.loadError')}</p>;
  } else if (analyses.data.length === 0) {
    body = (
      <div className="card">
        <EmptyState icon={<ClipboardList size={28} />} title={t('testResults.emptyTitle')} text={t('testResults.emptyText')} />
      </div>
    );
  } else {
    body = (
      <ul className="test-grid">
        {analyses.data.map((analysis) => (
          <ResultCard key={analysis.id} analysis={analysis} />
        ))}
      </ul>
    );
  }

  return (
    <div className="page">
      <PageHeader title={t('testResults.title')} subtitle={t('testResults.subtitle')} />
      <div className="filter-bar" role="group" aria-label={t('testResults.filterLabel')}>
        {FILTERS.map((value) => (
          <button
            key={value}
            type="button"
            className={`chip${filter === value ? ' chip--active' : ''}`}
            aria-pressed={filter === value}
            onClick={() => setFilter(value)}
          >
            {t(`testResults.${value}`)}
          </button>
        ))}
      </div>
      {body}
    </div>
  );
}
