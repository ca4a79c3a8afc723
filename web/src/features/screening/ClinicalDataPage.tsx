import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { MissingSession } from './MissingSession';
import { StepProgress } from './StepProgress';

/** Clinical data step. Without a screening in progress (none can be started yet) it says so. */
export function ClinicalDataPage() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <PageHeader title={t('clinical.title')} />
      <StepProgress current="clinical" />
      <MissingSession title={t('clinical.noPatientTitle')} text={t('clinical.noPatientText')} />
    </div>
  );
}
