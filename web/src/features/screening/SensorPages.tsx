import { FileUp } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths, screeningPath } from '../../app/paths';
import { DoctorsOnly } from '../../components/DoctorsOnly';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { useSerialManager } from '../../lib/serial/SerialProvider';
import { useCurrentUser } from '../../lib/session';
import { ScreeningPatient } from './ScreeningPatient';
import { ScreeningState } from './ScreeningState';
import { StepProgress } from './StepProgress';
import { EcgAnalyzeStep } from './EcgAnalyzeStep';
import { UploadStep } from './UploadStep';
import { useScreeningFromUrl } from './useScreeningFromUrl';

function DoctorsStep({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  return user.role === 'doctor' ? <>{children}</> : <DoctorsOnly />;
}

export function SensorPcgPage() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <PageHeader title={t('sensor.pcgTitle')} />
      <StepProgress current="pcg" />
      <DoctorsStep>
        <UploadStep
          kind="pcg"
          missingText={t('sensor.missingPcg')}
          back={(id) => screeningPath(paths.clinicalData, id)}
          next={{
            to: (id) => screeningPath(paths.sensorPpg, id),
            label: t('sensor.continueToPpg'),
            reason: t('sensor.pcgRequired'),
          }}
        />
      </DoctorsStep>
    </div>
  );
}

export function SensorPpgPage() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <PageHeader title={t('sensor.ppgTitle')} />
      <StepProgress current="ppg" />
      <DoctorsStep>
        <UploadStep
          kind="ppg"
          missingText={t('sensor.missingPpg')}
          back={(id) => screeningPath(paths.sensorPcg, id)}
          next={{
            to: (id) => screeningPath(paths.sensorEcg, id),
            label: t('sensor.continueToEcg'),
            reason: t('sensor.ppgRequired'),
          }}
        />
      </DoctorsStep>
    </div>
  );
}

export function SensorEcgPage() {
  const { t } = useTranslation();
  // Spec: ECG could only be uploaded; a serial ECG front end (where the browser has Web Serial) records it.
  const serial = useSerialManager();
  return (
    <div className="page">
      <PageHeader
        title={t('sensor.ecgTitle')}
        subtitle={serial.supported ? t('devices.record.ecgSubtitle') : t('sensor.ecgUploadOnly')}
      />
      <StepProgress current="ecg" />
      <DoctorsStep>
        <EcgStep />
      </DoctorsStep>
    </div>
  );
}

/** The ECG step needs a screening to analyse; without one it says where to start. */
function EcgStep() {
  const { t } = useTranslation();
  const { id, query, missing } = useScreeningFromUrl();
  if (missing) {
    return (
      <div className="card">
        <EmptyState icon={<FileUp size={28} />} title={t('sensor.missingTitle')} text={t('sensor.ecgNeedsScreening')}>
          <Link to={paths.intake} className="button button--secondary">
            {t('common.goToIntake')}
          </Link>
        </EmptyState>
      </div>
    );
  }
  if (!query.isSuccess || !id) return <ScreeningState error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <>
      <ScreeningPatient screening={query.data} />
      <EcgAnalyzeStep screening={query.data} />
    </>
  );
}
