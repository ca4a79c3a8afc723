import { CircleCheck } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { Screening } from '../../api/client';
import { paths, screeningPath } from '../../app/paths';
import { DoctorsOnly } from '../../components/DoctorsOnly';
import { ErrorBanner } from '../../components/ErrorBanner';
import { PageHeader } from '../../components/PageHeader';
import { apiErrorMessage } from '../../lib/apiErrors';
import { useCurrentUser } from '../../lib/session';
import { REDIRECT_DELAY_MS } from '../../lib/workflow';
import { useSaveClinical } from './api';
import {
  AGE_MAX,
  AGE_MIN,
  CLINICAL_FIELDS,
  clinicalBody,
  clinicalValuesOf,
  emptyClinicalValues,
  MAX_HEART_RATE_RANGE,
  OPTIONAL_CLINICAL_FIELDS,
  RESTING_BP_RANGE,
  ST_DEPRESSION_RANGE,
  validateClinical,
  type ClinicalErrors,
  type ClinicalField,
  type ClinicalValues,
} from './clinicalForm';
import { MissingSession } from './MissingSession';
import { ScreeningPatient } from './ScreeningPatient';
import { ScreeningState } from './ScreeningState';
import { StepProgress } from './StepProgress';
import { useScreeningFromUrl } from './useScreeningFromUrl';

/**
 * Clinical data step (spec §2): the screening's patient, then the seven parameters and, folded under "More
 * clinical values (optional)", the six more the clinical model uses when given; saved on the server.
 */
export function ClinicalDataPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  return (
    <div className="page">
      <PageHeader title={t('clinical.title')} subtitle={t('clinical.subtitle')} />
      <StepProgress current="clinical" />
      {user.role === 'doctor' ? <ClinicalStep /> : <DoctorsOnly />}
    </div>
  );
}

function ClinicalStep() {
  const { t } = useTranslation();
  const { query, missing } = useScreeningFromUrl();
  if (missing) return <MissingSession title={t('clinical.noPatientTitle')} text={t('clinical.noPatientText')} />;
  if (!query.isSuccess) return <ScreeningState error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <>
      <ScreeningPatient screening={query.data} />
      {/* Keyed by screening, so another screening starts from its own values. */}
      <ClinicalForm key={query.data.id} screening={query.data} />
    </>
  );
}

const CHEST_PAIN = ['0', '1', '2', '3'] as const;
const ANGINA = ['0', '1'] as const;
const VESSELS = ['0', '1', '2', '3'] as const;
const THALASSEMIA = ['0', '1', '2'] as const;
const SEXES = ['male', 'female'] as const;
const RESTING_ECG = ['0', '1', '2'] as const;
const ST_SLOPE = ['0', '1', '2'] as const;

const isOptional = (name: ClinicalField) => (OPTIONAL_CLINICAL_FIELDS as readonly string[]).includes(name);

function ClinicalForm({ screening }: { screening: Screening }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const save = useSaveClinical();
  const prefilled = Boolean(screening.clinical);
  const [values, setValues] = useState<ClinicalValues>(() =>
    screening.clinical ? clinicalValuesOf(screening.clinical.parameters) : emptyClinicalValues(screening.patient),
  );
  const fromRecord = !prefilled && (values.age !== '' || values.sex !== '');
  // Open when a value other than the record's sex is there (a saved entry, or an error to show).
  const [moreOpen, setMoreOpen] = useState(() =>
    OPTIONAL_CLINICAL_FIELDS.some((name) => name !== 'sex' && values[name] !== ''),
  );
  const [errors, setErrors] = useState<ClinicalErrors>({});
  const formRef = useRef<HTMLFormElement>(null);

  const saved = save.isSuccess;
  useEffect(() => {
    if (!saved) return;
    const timer = window.setTimeout(() => {
      void navigate(screeningPath(paths.sensorPcg, screening.id));
    }, REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [saved, navigate, screening.id]);

  if (saved) {
    return (
      <div className="card">
        <div className="success-state" role="status">
          <CircleCheck className="success-state__icon" aria-hidden="true" size={48} />
          <p className="success-state__title">{t('clinical.savedTitle')}</p>
          <p className="success-state__text">{t('clinical.savedText')}</p>
        </div>
      </div>
    );
  }

  const onChange = (field: ClinicalField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problems = validateClinical(values);
    setErrors(problems);
    const first = CLINICAL_FIELDS.find((field) => problems[field]);
    if (first) {
      save.reset();
      if (isOptional(first)) setMoreOpen(true);
      formRef.current?.querySelector<HTMLElement>(`#clinical-${first}`)?.focus();
      return;
    }
    save.mutate({ patientId: screening.patient.id, body: clinicalBody(values, screening.id) });
  };

  const busy = save.isPending;
  const choices: Partial<Record<ClinicalField, { value: string; label: string }[]>> = {
    chestPainType: CHEST_PAIN.map((value) => ({ value, label: t(`clinicalParams.chestPain.${value}`) })),
    exerciseInducedAngina: ANGINA.map((value) => ({ value, label: t(`clinicalParams.angina.${value}`) })),
    vesselsColoredByFlourosopy: VESSELS.map((value) => ({ value, label: value })),
    thalassemia: THALASSEMIA.map((value) => ({ value, label: t(`clinicalParams.thal.${value}`) })),
    sex: SEXES.map((value) => ({ value, label: t(`clinicalParams.sexes.${value}`) })),
    restingEcg: RESTING_ECG.map((value) => ({ value, label: t(`clinicalParams.restingEcgOption.${value}`) })),
    stSlope: ST_SLOPE.map((value) => ({ value, label: t(`clinicalParams.stSlopeOption.${value}`) })),
  };

  const field = (name: ClinicalField, label: string, control: ReactNode) => (
    <div className="field">
      <label
        htmlFor={`clinical-${name}`}
        className={isOptional(name) ? 'field__label' : 'field__label field__label--required'}
      >
        {label}
      </label>
      {control}
      {errors[name] ? (
        <p id={`clinical-${name}-error`} className="field__error">
          {t(errors[name])}
        </p>
      ) : null}
    </div>
  );
  const common = (name: ClinicalField) => ({
    id: `clinical-${name}`,
    name,
    value: values[name],
    disabled: busy,
    'aria-required': !isOptional(name),
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `clinical-${name}-error` : undefined,
  });
  const number = (name: ClinicalField, min: number, max?: number, step = 'any') => (
    <input
      {...common(name)}
      className="input"
      type="number"
      inputMode="decimal"
      min={min}
      max={max}
      step={step}
      onChange={(event) => onChange(name, event.target.value)}
    />
  );
  const select = (name: ClinicalField) => (
    <select {...common(name)} className="select select--input" onChange={(event) => onChange(name, event.target.value)}>
      <option value="">{isOptional(name) ? t('clinicalParams.notEntered') : t('clinicalParams.select')}</option>
      {(choices[name] ?? []).map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );

  return (
    <form ref={formRef} className="card form" noValidate onSubmit={onSubmit} aria-busy={busy}>
      <h2 className="section__title">{t('clinical.parametersTitle')}</h2>
      {prefilled ? <p className="notice">{t('clinical.prefilled')}</p> : null}
      {fromRecord ? <p className="field__help">{t('clinical.fromRecord')}</p> : null}
      <ErrorBanner message={save.isError ? apiErrorMessage(save.error, t('errors.clinicalSaveFailed'), t) : null} />
      <div className="form-grid">
        {field('age', t('clinicalParams.age'), number('age', AGE_MIN, AGE_MAX, '1'))}
        {field('chestPainType', t('clinicalParams.chestPainType'), select('chestPainType'))}
        {field('cholesterol', t('clinicalParams.cholesterol'), number('cholesterol', 0))}
        {field('fastingBloodSugar', t('clinicalParams.fastingBloodSugar'), number('fastingBloodSugar', 0))}
        {field('exerciseInducedAngina', t('clinicalParams.exerciseInducedAngina'), select('exerciseInducedAngina'))}
        {field('vesselsColoredByFlourosopy', t('clinicalParams.vessels'), select('vesselsColoredByFlourosopy'))}
        {field('thalassemia', t('clinicalParams.thalassemia'), select('thalassemia'))}
      </div>
      <details
        className="form-more"
        open={moreOpen}
        onToggle={(event) => setMoreOpen((event.currentTarget as HTMLDetailsElement).open)}
      >
        <summary className="form-more__summary">{t('clinical.moreValues')}</summary>
        <p className="field__help">{t('clinical.moreValuesHint')}</p>
        <div className="form-grid">
          {field('sex', t('clinicalParams.sex'), select('sex'))}
          {field(
            'restingBloodPressure',
            t('clinicalParams.restingBloodPressure'),
            number('restingBloodPressure', RESTING_BP_RANGE[0], RESTING_BP_RANGE[1]),
          )}
          {field('restingEcg', t('clinicalParams.restingEcg'), select('restingEcg'))}
          {field(
            'maxHeartRate',
            t('clinicalParams.maxHeartRate'),
            number('maxHeartRate', MAX_HEART_RATE_RANGE[0], MAX_HEART_RATE_RANGE[1]),
          )}
          {field(
            'stDepression',
            t('clinicalParams.stDepression'),
            number('stDepression', ST_DEPRESSION_RANGE[0], ST_DEPRESSION_RANGE[1], '0.1'),
          )}
          {field('stSlope', t('clinicalParams.stSlope'), select('stSlope'))}
        </div>
      </details>
      <div className="form-actions">
        <Link to={paths.intake} className="button button--secondary">
          {t('common.back')}
        </Link>
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? t('clinical.submitting') : t('clinical.submit')}
        </button>
      </div>
    </form>
  );
}
