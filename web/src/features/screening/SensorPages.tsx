import { ArrowLeft, FileUp } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths, screeningPath } from '../../app/paths';
import { DoctorsOnly } from '../../components/DoctorsOnly';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { useCurrentUser } from '../../lib/session';
import { MissingSession } from './MissingSession';
import { ScreeningPatient } from './ScreeningPatient';
import { ScreeningState } from './ScreeningState';
import { StepProgress, type ScreeningStep } from './StepProgress';
import { UploadStep } from './UploadStep';
import { useScreeningFromUrl } from './useScreeningFromUrl';

interface SignalStepProps {
  step: Exclude<ScreeningStep, 'clinical'>;
  /** Shown without a valid screening; `null` shows the step without a patient (ECG). */
  missingText: string | null;
  /** The "not available yet" panel. */
  notAvailable: ReactNode;
  /** Where Back goes, for this screening. */
  back: (screeningId: string) => string;
  /** The next step's button label and the reason it is disabled; none on the last step. */
  next?: { label: string; reason: string };
}

/**
 * A signal step (spec §2). Recording and upload arrive in a later issue, so the page says so honestly:
 * no fake controls, and Continue stays disabled with the spec's reason.
 */
function SignalStep({ step, missingText, notAvailable, back, next }: SignalStepProps) {
  const { t } = useTranslation();
  const { id, query, missing } = useScreeningFromUrl();

  if (missing) {
    if (missingText !== null) return <MissingSession title={t('sensor.missingTitle')} text={missingText} />;
    return <>{notAvailable}</>;
  }
  if (!query.isSuccess || !id) return <ScreeningState error={query.error} onRetry={() => void query.refetch()} />;

  const reasonId = `${step}-next-reason`;
  return (
    <>
      <ScreeningPatient screening={query.data} />
      {notAvailable}
      <div className="step-actions">
        <Link to={back(id)} className="button button--secondary">
          <ArrowLeft aria-hidden="true" size={18} />
          {t('common.back')}
        </Link>
        {next ? (
          <div className="step-actions__next">
            <p id={reasonId} className="muted small">
              {next.reason}
            </p>
            <button type="button" className="button button--primary" disabled aria-describedby={reasonId}>
              {next.label}
            </button>
          </div>
        ) : null}
      </div>
    </>
  );
}

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
  return (
    <div className="page">
      <PageHeader title={t('sensor.ecgTitle')} subtitle={t('sensor.ecgUploadOnly')} />
      <StepProgress current="ecg" />
      <DoctorsStep>
        <SignalStep
          step="ecg"
          missingText={null}
          notAvailable={
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
          }
          back={(id) => screeningPath(paths.sensorPpg, id)}
        />
      </DoctorsStep>
    </div>
  );
}
