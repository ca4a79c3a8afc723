import { useTranslation } from 'react-i18next';
import type { ModelMetric, ModelSummary } from '../../api/client';
import { useModels } from './api/models';

const MODALITIES = ['clinical', 'pcg', 'ppg', 'ecg'] as const;
type KnownModality = (typeof MODALITIES)[number];

function isKnownModality(value: string): value is KnownModality {
  return (MODALITIES as readonly string[]).includes(value);
}

/** A figure as a percentage with one decimal, and its 95% CI when known. */
function MetricLine({ metric }: { metric: ModelMetric }) {
  const { t, i18n } = useTranslation();
  // Figures are fractions shown as percentages, except those in beats per minute.
  const inBpm = metric.code.endsWith('_bpm');
  const percent = (v: number) =>
    new Intl.NumberFormat(i18n.language, {
      style: inBpm ? 'decimal' : 'percent',
      minimumFractionDigits: inBpm ? 2 : 1,
      maximumFractionDigits: inBpm ? 2 : 1,
    }).format(v);
  const name = t(`welcome.validated.metrics.${metric.code}`, { defaultValue: metric.code });
  const ci =
    metric.ci_low != null && metric.ci_high != null
      ? t('welcome.validated.ci', { low: percent(metric.ci_low), high: percent(metric.ci_high) })
      : '';
  return (
    <li>
      <span className="validated__metric">{name}</span>{' '}
      <strong className="validated__value">{percent(metric.value)}</strong>
      {ci && <span className="validated__ci"> {ci}</span>}
      {metric.target != null && (
        <span className="validated__ci">
          {' '}
          {t(metric.value >= metric.target ? 'welcome.validated.targetMet' : 'welcome.validated.targetMissed', {
            target: percent(metric.target),
          })}
        </span>
      )}
    </li>
  );
}

function ModelCard({ model }: { model: ModelSummary }) {
  const { t } = useTranslation();
  const title = isKnownModality(model.modality) ? t(`welcome.features.${model.modality}.title`) : model.modality;
  return (
    <li className="card validated__card">
      <h3>{title}</h3>
      <ul className="validated__metrics">
        {model.metrics.map((metric) => (
          <MetricLine key={metric.code} metric={metric} />
        ))}
      </ul>
      <p className="validated__source">
        {t('welcome.validated.source', { dataset: model.dataset, id: model.id, version: model.version })}
      </p>
    </li>
  );
}

/** The validated figures of each loaded model, from their model cards, instead of marketing claims. */
export function ValidatedModels() {
  const { t } = useTranslation();
  const models = useModels();
  return (
    <section className="welcome-section" aria-labelledby="welcome-validated" aria-busy={models.isPending}>
      <h2 id="welcome-validated" className="welcome-section__title">
        {t('welcome.validated.title')}
      </h2>
      <p className="welcome-section__intro">{t('welcome.validated.intro')}</p>
      {models.isPending && <p role="status">{t('welcome.validated.loading')}</p>}
      {models.isError && <p role="status">{t('welcome.validated.unavailable')}</p>}
      {models.isSuccess && models.data.length === 0 && <p role="status">{t('welcome.validated.none')}</p>}
      {models.isSuccess && models.data.length > 0 && (
        <ul className="validated">
          {models.data.map((model) => (
            <ModelCard key={model.id} model={model} />
          ))}
        </ul>
      )}
    </section>
  );
}
