import { FileUp } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { MissingSession } from './MissingSession';
import { StepProgress } from './StepProgress';

export function SensorPcgPage() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <PageHeader title={t('sensor.pcgTitle')} />
      <StepProgress current="pcg" />
      <MissingSession title={t('sensor.missingTitle')} text={t('sensor.missingPcg')} />
    </div>
  );
}

export function SensorPpgPage() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <PageHeader title={t('sensor.ppgTitle')} />
      <StepProgress current="ppg" />
      <MissingSession title={t('sensor.missingTitle')} text={t('sensor.missingPpg')} />
    </div>
  );
}

export function SensorEcgPage() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <PageHeader title={t('sensor.ecgTitle')} subtitle={t('sensor.ecgUploadOnly')} />
      <StepProgress current="ecg" />
      <div className="card">
        <EmptyState
          icon={<FileUp size={28} />}
          title={t('sensor.ecgNotAvailableTitle')}
          text={t('sensor.ecgNotAvailableText')}
        >
          <Link to={paths.home} className="button button--secondary">
            {t('common.backToHome')}
          </Link>
        </EmptyState>
      </div>
    </div>
  );
}
