import { Activity, Eye, Plus, Search, Users } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { Patient } from '../../api/client';
import { analysisPath, patientPath, paths } from '../../app/paths';
import { DoctorsOnly } from '../../components/DoctorsOnly';
import { EmptyState } from '../../components/EmptyState';
import { ErrorBanner } from '../../components/ErrorBanner';
import { PageHeader } from '../../components/PageHeader';
import { ResultBadge } from '../../components/RiskBadge';
import { Spinner } from '../../components/Spinner';
import { apiErrorMessage } from '../../lib/apiErrors';
import { formatDate, formatDay } from '../../lib/format';
import { modelName } from '../../lib/prediction';
import { useCurrentUser } from '../../lib/session';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { usePatients } from './api';
import { StatusBadge } from './StatusBadge';
import { useRunDiagnostics } from './useRunDiagnostics';
import { findingText } from '../../lib/clinicalText';

/** Wait this long after the last keystroke before searching on the server. */
export const SEARCH_DEBOUNCE_MS = 300;

export function PatientsPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  return (
    <div className="page">
      <PageHeader
        title={t('patients.title')}
        subtitle={t('patients.subtitle')}
        actions={
          user.role === 'doctor' ? (
            <Link to={paths.intake} className="button button--primary">
              <Plus aria-hidden="true" size={18} />
              {t('patients.add')}
            </Link>
          ) : undefined
        }
      />
      {user.role === 'doctor' ? <PatientList /> : <DoctorsOnly />}
    </div>
  );
}

function PatientList() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const [search, setSearch] = useState(() => searchParams.get('q') ?? '');
  const q = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const patients = usePatients(q);
  const { run, start } = useRunDiagnostics();

  // Keep the search in the URL, so a reload or the back button shows the same list.
  useEffect(() => {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (q) next.set('q', q);
        else next.delete('q');
        return next;
      },
      { replace: true },
    );
  }, [q, setSearchParams]);

  let body;
  if (patients.isPending) {
    body = (
      <div className="list-state">
        <Spinner label={t('patients.loading')} />
      </div>
    );
  } else if (patients.isError) {
    body = (
      <ErrorBanner
        message={t('errors.loadPatients', { message: apiErrorMessage(patients.error, t('errors.loadFailed'), t) })}
      />
    );
  } else if (patients.data.length === 0) {
    body = q ? (
      <EmptyState icon={<Search size={28} />} title={t('patients.noMatch')} />
    ) : (
      <EmptyState icon={<Users size={28} />} title={t('patients.empty')} />
    );
  } else {
    body = (
      <div className="table-wrap">
        <table className="table table--dense">
          <caption className="visually-hidden">{t('patients.tableCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('patients.columns.patient')}</th>
              <th scope="col">{t('patients.columns.dateOfBirth')}</th>
              <th scope="col">{t('patients.columns.gender')}</th>
              <th scope="col">{t('patients.columns.phone')}</th>
              <th scope="col">{t('patients.columns.lastVisit')}</th>
              <th scope="col">{t('patients.columns.lastResult')}</th>
              <th scope="col">{t('patients.columns.status')}</th>
              <th scope="col">{t('patients.columns.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {patients.data.map((patient) => (
              <PatientRow
                key={patient.id}
                patient={patient}
                starting={start.isPending && start.variables === patient.id}
                disabled={start.isPending}
                onRun={() => run(patient.id)}
              />
            ))}
          </tbody>
        </table>
      </div>
    );
  }

  return (
    <div className="card list-card">
      <div className="search">
        <label htmlFor="patient-search" className="visually-hidden">
          {t('patients.searchLabel')}
        </label>
        <Search className="search__icon" aria-hidden="true" size={18} />
        <input
          id="patient-search"
          className="input search__input"
          type="search"
          placeholder={t('patients.searchPlaceholder')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>
      <ErrorBanner message={start.isError ? apiErrorMessage(start.error, t('errors.screeningFailed'), t) : null} />
      {body}
    </div>
  );
}

/** The latest analysis: modality, finding, risk badge and date, linked to the analysis; a dash when none. */
function LastResultCell({ patient }: { patient: Patient }) {
  const { t } = useTranslation();
  const last = patient.lastResult;
  if (!last) return <span className="muted">{t('patients.noResult')}</span>;
  const modality = modelName(last.modality);
  return (
    <div className="last-result">
      <Link to={analysisPath(last.analysisId)}>
        {modality}: {findingText(last.modality, last.label, last.prediction)}
      </Link>
      <span className="last-result__meta">
        <ResultBadge label={last.label} riskScore={last.riskScore} />
        <span className="last-result__date">{formatDay(last.createdAt)}</span>
      </span>
    </div>
  );
}

function PatientRow({
  patient,
  starting,
  disabled,
  onRun,
}: {
  patient: Patient;
  starting: boolean;
  disabled: boolean;
  onRun: () => void;
}) {
  const { t } = useTranslation();
  const name = `${patient.firstName} ${patient.lastName}`;
  return (
    <tr>
      <td>
        <span className="table__primary">{name}</span>
        <span className="table__secondary" title={patient.id}>
          {t('patients.idLabel', { id: patient.id })}
        </span>
      </td>
      <td className="table__nowrap">{formatDate(patient.dateOfBirth)}</td>
      <td>{t(`patientForm.gender.${patient.gender}`)}</td>
      <td className="table__nowrap">{patient.phone}</td>
      <td>{formatDay(patient.lastVisit)}</td>
      <td>
        <LastResultCell patient={patient} />
      </td>
      <td>
        <StatusBadge status={patient.status} />
      </td>
      <td>
        <div className="table__actions">
          <button
            type="button"
            className="button button--primary button--small"
            onClick={onRun}
            disabled={disabled}
            aria-label={t('patients.runDiagnosticsFor', { name })}
          >
            <Activity aria-hidden="true" size={16} />
            {starting ? t('patients.starting') : t('patients.runDiagnostics')}
          </button>
          <Link
            to={patientPath(patient.id)}
            className="button button--secondary button--small"
            aria-label={t('patients.viewDetailsOf', { name })}
          >
            <Eye aria-hidden="true" size={16} />
            {t('patients.viewDetails')}
          </Link>
        </div>
      </td>
    </tr>
  );
}
