import { CircleCheck } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { paths, screeningPath } from '../../app/paths';
import { DoctorsOnly } from '../../components/DoctorsOnly';
import { ErrorBanner } from '../../components/ErrorBanner';
import { PageHeader } from '../../components/PageHeader';
import { PatientFormFields } from '../../components/PatientFormFields';
import { apiErrorMessage } from '../../lib/apiErrors';
import {
  emptyPatientValues,
  firstInvalidField,
  patientFormBody,
  validatePatient,
  type PatientErrors,
  type PatientField,
  type PatientValues,
} from '../../lib/patientForm';
import { useCurrentUser } from '../../lib/session';
import { REDIRECT_DELAY_MS } from '../../lib/workflow';
import { useCreatePatient, useCreateScreening } from './api';

/** Patient intake (spec §2): three sections, client checks, then a screening is started. */
export function IntakePage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  return (
    <div className="page">
      <PageHeader title={t('intake.title')} subtitle={t('intake.subtitle')} />
      {user.role === 'doctor' ? <IntakeForm /> : <DoctorsOnly />}
    </div>
  );
}

function IntakeForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const createPatient = useCreatePatient();
  const createScreening = useCreateScreening();
  const [values, setValues] = useState<PatientValues>(emptyPatientValues);
  const [errors, setErrors] = useState<PatientErrors>({});
  const formRef = useRef<HTMLFormElement>(null);

  const screeningId = createScreening.data?.id;
  useEffect(() => {
    if (!screeningId) return;
    const timer = window.setTimeout(() => {
      void navigate(screeningPath(paths.clinicalData, screeningId));
    }, REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [screeningId, navigate]);

  const onChange = (field: PatientField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problems = validatePatient(values);
    setErrors(problems);
    const first = firstInvalidField(problems);
    if (first) {
      createPatient.reset();
      formRef.current?.querySelector<HTMLElement>(`#intake-${first}`)?.focus();
      return;
    }
    createPatient.mutate(patientFormBody(values), {
      onSuccess: (patient) => createScreening.mutate(patient.id),
    });
  };

  if (createPatient.isSuccess) {
    return (
      <div className="card">
        <div className="success-state" role="status">
          <CircleCheck className="success-state__icon" aria-hidden="true" size={48} />
          <p className="success-state__title">{t('intake.successTitle')}</p>
          <p className="success-state__text">{t('intake.successText')}</p>
        </div>
        <ErrorBanner
          message={
            createScreening.isError ? apiErrorMessage(createScreening.error, t('intake.screeningFailed'), t) : null
          }
        />
        {createScreening.isError ? (
          <div className="form-actions">
            <button
              type="button"
              className="button button--primary"
              onClick={() => createScreening.mutate(createPatient.data.id)}
            >
              {t('common.tryAgain')}
            </button>
          </div>
        ) : null}
      </div>
    );
  }

  const busy = createPatient.isPending;
  return (
    <form ref={formRef} className="card form" noValidate onSubmit={onSubmit} aria-busy={busy}>
      <ErrorBanner
        message={createPatient.isError ? apiErrorMessage(createPatient.error, t('errors.addPatientFailed'), t) : null}
      />
      <PatientFormFields idPrefix="intake" values={values} errors={errors} onChange={onChange} disabled={busy} />
      <div className="form-actions">
        <Link to={paths.patients} className="button button--secondary">
          {t('common.cancel')}
        </Link>
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? t('intake.submitting') : t('intake.submit')}
        </button>
      </div>
    </form>
  );
}
