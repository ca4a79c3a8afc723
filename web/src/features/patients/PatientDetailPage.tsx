import { Activity, ArrowLeft, CircleAlert, Download, Pencil } from 'lucide-react';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { Patient } from '../../api/client';
import { paths } from '../../app/paths';
import { DoctorsOnly } from '../../components/DoctorsOnly';
import { EmptyState } from '../../components/EmptyState';
import { ErrorBanner } from '../../components/ErrorBanner';
import { PageHeader } from '../../components/PageHeader';
import { PatientFormFields } from '../../components/PatientFormFields';
import { Spinner } from '../../components/Spinner';
import { apiErrorMessage, isNotFound } from '../../lib/apiErrors';
import { formatDate, formatDateTime } from '../../lib/format';
import {
  firstInvalidField,
  patientPatchBody,
  patientValuesOf,
  statusPatchBody,
  validatePatient,
  type PatientErrors,
  type PatientField,
  type PatientValues,
} from '../../lib/patientForm';
import { useCurrentUser } from '../../lib/session';
import { ShareWithPatient } from './ShareWithPatient';
import { usePatient, useUpdatePatient } from './api';
import { Analyses, ClinicalHistory, Screenings } from './PatientHistory';
import { StatusBadge } from './StatusBadge';
import { useRunDiagnostics } from './useRunDiagnostics';

/** One patient (issue 3): demographics, edit, status, clinical history and screenings. */
export function PatientDetailPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const { id = '' } = useParams();
  if (user.role !== 'doctor') {
    return (
      <div className="page">
        <PageHeader title={t('patients.title')} />
        <DoctorsOnly />
      </div>
    );
  }
  return <PatientDetail key={id} id={id} />;
}

function PatientDetail({ id }: { id: string }) {
  const { t } = useTranslation();
  const patient = usePatient(id);

  if (patient.isPending) {
    return (
      <div className="page">
        <div className="card list-state">
          <Spinner label={t('patientDetail.loading')} />
        </div>
      </div>
    );
  }
  if (patient.isError) {
    return (
      <div className="page">
        <PageHeader title={isNotFound(patient.error) ? t('patientDetail.notFoundTitle') : t('patients.title')} />
        <div className="card">
          {isNotFound(patient.error) ? (
            // The heading already says "Patient not found."; the card says why, once.
            <EmptyState icon={<CircleAlert size={28} />} title={t('patientDetail.notFoundText')}>
              <Link to={paths.patients} className="button button--primary">
                {t('common.backToPatients')}
              </Link>
            </EmptyState>
          ) : (
            <>
              <ErrorBanner message={apiErrorMessage(patient.error, t('errors.loadFailed'), t)} />
              <button type="button" className="button button--primary" onClick={() => void patient.refetch()}>
                {t('common.tryAgain')}
              </button>
            </>
          )}
        </div>
      </div>
    );
  }
  return <PatientRecord patient={patient.data} />;
}

function PatientRecord({ patient }: { patient: Patient }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const { run, start } = useRunDiagnostics();
  const update = useUpdatePatient();
  const name = `${patient.firstName} ${patient.lastName}`;

  const toggleStatus = () => {
    setSaved(false);
    update.mutate(
      { id: patient.id, body: statusPatchBody(patient.status === 'active' ? 'inactive' : 'active') },
      { onSuccess: () => setSaved(true) },
    );
  };

  return (
    <div className="page">
      <Link to={paths.patients} className="link-with-icon">
        <ArrowLeft aria-hidden="true" size={16} />
        {t('common.backToPatients')}
      </Link>
      <PageHeader
        title={name}
        subtitle={t('patientDetail.subtitle')}
        actions={
          editing ? undefined : (
            <>
              <button
                type="button"
                className="button button--secondary"
                onClick={() => {
                  setSaved(false);
                  setEditing(true);
                }}
              >
                <Pencil aria-hidden="true" size={16} />
                {t('common.edit')}
              </button>
              <a
                className="button button--secondary"
                href={`/api/patients/${encodeURIComponent(patient.id)}/fhir`}
                download={`patient-${patient.id}.fhir.json`}
              >
                <Download aria-hidden="true" size={16} />
                {t('patientDetail.exportFhir')}
              </a>
              <button
                type="button"
                className="button button--primary"
                onClick={() => run(patient.id)}
                disabled={start.isPending}
              >
                <Activity aria-hidden="true" size={16} />
                {start.isPending ? t('patients.starting') : t('patients.runDiagnostics')}
              </button>
            </>
          )
        }
      />
      <ErrorBanner message={start.isError ? apiErrorMessage(start.error, t('errors.screeningFailed'), t) : null} />
      {saved ? (
        <p className="notice" role="status">
          {t('patientDetail.saved')}
        </p>
      ) : null}

      {editing ? (
        <EditPatient
          patient={patient}
          onDone={(didSave) => {
            setEditing(false);
            setSaved(didSave);
          }}
        />
      ) : (
        <>
          <ErrorBanner message={update.isError ? apiErrorMessage(update.error, t('errors.saveFailed'), t) : null} />
          <Demographics patient={patient} onToggleStatus={toggleStatus} toggling={update.isPending} />
        </>
      )}
      <ClinicalHistory patientId={patient.id} />
      <Screenings patientId={patient.id} />
      <Analyses patientId={patient.id} />
      <ShareWithPatient patient={patient} />
    </div>
  );
}

function Item({ label, children, multiline = false }: { label: string; children: ReactNode; multiline?: boolean }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd className={multiline ? 'pre-line' : undefined}>{children}</dd>
    </div>
  );
}

function Demographics({
  patient,
  onToggleStatus,
  toggling,
}: {
  patient: Patient;
  onToggleStatus: () => void;
  toggling: boolean;
}) {
  const { t } = useTranslation();
  const label = (field: PatientField) => t(`patientForm.fields.${field}`);
  const filled = (fields: PatientField[]) => fields.filter((field) => (patient[field] ?? '').trim() !== '');
  const address = filled(['address', 'city', 'state', 'zipCode']);
  const medical = filled(['medicalHistory', 'currentMedications', 'allergies', 'emergencyContact', 'emergencyPhone']);
  const multiline = new Set<PatientField>(['medicalHistory', 'currentMedications', 'allergies']);

  return (
    <div className="detail-grid">
      <section className="card detail-card" aria-labelledby="patient-personal">
        <h2 id="patient-personal" className="section__title">
          {t('patientDetail.sections.personal')}
        </h2>
        <dl className="details details--stacked">
          <Item label={label('dateOfBirth')}>{formatDate(patient.dateOfBirth)}</Item>
          <Item label={label('gender')}>{t(`patientForm.gender.${patient.gender}`)}</Item>
          <Item label={label('phone')}>{patient.phone}</Item>
          {patient.email ? <Item label={label('email')}>{patient.email}</Item> : null}
        </dl>
      </section>
      <section className="card detail-card" aria-labelledby="patient-record">
        <h2 id="patient-record" className="section__title">
          {t('patientDetail.sections.record')}
        </h2>
        <dl className="details details--stacked">
          <Item label={t('patientDetail.status')}>
            <StatusBadge status={patient.status} />
          </Item>
          <Item label={t('patientDetail.createdAt')}>{formatDateTime(patient.createdAt)}</Item>
          <Item label={t('patientDetail.lastVisit')}>{formatDateTime(patient.lastVisit)}</Item>
          <Item label={t('patientDetail.id')}>
            <code>{patient.id}</code>
          </Item>
        </dl>
        <div>
          <button type="button" className="button button--secondary" onClick={onToggleStatus} disabled={toggling}>
            {patient.status === 'active' ? t('patientDetail.markInactive') : t('patientDetail.markActive')}
          </button>
        </div>
      </section>
      <section className="card detail-card" aria-labelledby="patient-address">
        <h2 id="patient-address" className="section__title">
          {t('patientDetail.sections.address')}
        </h2>
        {address.length ? (
          <dl className="details details--stacked">
            {address.map((field) => (
              <Item key={field} label={label(field)}>
                {patient[field]}
              </Item>
            ))}
          </dl>
        ) : (
          <p className="muted">{t('patientDetail.noAddress')}</p>
        )}
      </section>
      <section className="card detail-card" aria-labelledby="patient-medical">
        <h2 id="patient-medical" className="section__title">
          {t('patientDetail.sections.medical')}
        </h2>
        {medical.length ? (
          <dl className="details details--stacked">
            {medical.map((field) => (
              <Item key={field} label={label(field)} multiline={multiline.has(field)}>
                {patient[field]}
              </Item>
            ))}
          </dl>
        ) : (
          <p className="muted">{t('patientDetail.noMedical')}</p>
        )}
      </section>
    </div>
  );
}

function EditPatient({ patient, onDone }: { patient: Patient; onDone: (saved: boolean) => void }) {
  const { t } = useTranslation();
  const update = useUpdatePatient();
  const [values, setValues] = useState<PatientValues>(() => patientValuesOf(patient));
  const [errors, setErrors] = useState<PatientErrors>({});
  const formRef = useRef<HTMLFormElement>(null);

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
      update.reset();
      formRef.current?.querySelector<HTMLElement>(`#edit-${first}`)?.focus();
      return;
    }
    update.mutate({ id: patient.id, body: patientPatchBody(values) }, { onSuccess: () => onDone(true) });
  };

  const busy = update.isPending;
  return (
    <form
      ref={formRef}
      className="card form"
      noValidate
      onSubmit={onSubmit}
      aria-busy={busy}
      aria-labelledby="edit-patient-title"
    >
      <h2 id="edit-patient-title" className="section__title">
        {t('patientDetail.editTitle')}
      </h2>
      <ErrorBanner message={update.isError ? apiErrorMessage(update.error, t('errors.saveFailed'), t) : null} />
      <PatientFormFields idPrefix="edit" values={values} errors={errors} onChange={onChange} disabled={busy} />
      <div className="form-actions">
        <button type="button" className="button button--secondary" onClick={() => onDone(false)} disabled={busy}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? t('common.saving') : t('common.save')}
        </button>
      </div>
    </form>
  );
}
