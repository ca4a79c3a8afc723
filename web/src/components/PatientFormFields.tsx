import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PatientErrors, PatientField, PatientValues } from '../lib/patientForm';

interface PatientFormFieldsProps {
  /** Prefix of the inputs' ids (`{idPrefix}-{field}`), unique on the page. */
  idPrefix: string;
  values: PatientValues;
  errors: PatientErrors;
  onChange: (field: PatientField, value: string) => void;
  disabled?: boolean;
}

const REQUIRED: ReadonlySet<PatientField> = new Set(['firstName', 'lastName', 'dateOfBirth', 'gender', 'phone']);

/** The patient form's three sections (spec §2 intake): personal information, address, medical information. */
export function PatientFormFields({ idPrefix, values, errors, onChange, disabled = false }: PatientFormFieldsProps) {
  const { t } = useTranslation();

  const field = (name: PatientField, control: (props: ControlProps) => ReactNode, wide = false) => {
    const id = `${idPrefix}-${name}`;
    const error = errors[name];
    const errorId = `${id}-error`;
    const required = REQUIRED.has(name);
    return (
      <div className={wide ? 'field form-grid__wide' : 'field'}>
        <label htmlFor={id} className={required ? 'field__label field__label--required' : 'field__label'}>
          {t(`patientForm.fields.${name}`)}
        </label>
        {control({
          id,
          name,
          value: values[name],
          disabled,
          'aria-invalid': error ? true : undefined,
          'aria-required': required || undefined,
          'aria-describedby': error ? errorId : undefined,
          onChange: (event: { target: { value: string } }) => onChange(name, event.target.value),
        })}
        {error ? (
          <p id={errorId} className="field__error">
            {t(error)}
          </p>
        ) : null}
      </div>
    );
  };

  const text = (type: string, autoComplete?: string) => (props: ControlProps) => (
    <input {...props} className="input" type={type} autoComplete={autoComplete} />
  );
  const area = (props: ControlProps) => <textarea {...props} className="input textarea" rows={3} />;

  return (
    <>
      <fieldset className="form-section">
        <legend className="form-section__title">{t('patientForm.sections.personal')}</legend>
        <div className="form-grid">
          {field('firstName', text('text', 'off'))}
          {field('lastName', text('text', 'off'))}
          {field('dateOfBirth', text('date'))}
          {field('gender', (props) => (
            <select {...props} className="select select--input">
              <option value="">{t('patientForm.genderPlaceholder')}</option>
              <option value="male">{t('patientForm.gender.male')}</option>
              <option value="female">{t('patientForm.gender.female')}</option>
              <option value="other">{t('patientForm.gender.other')}</option>
            </select>
          ))}
          {field('phone', text('tel', 'off'))}
          {field('email', text('email', 'off'))}
        </div>
      </fieldset>
      <fieldset className="form-section">
        <legend className="form-section__title">{t('patientForm.sections.address')}</legend>
        <div className="form-grid">
          {field('address', text('text', 'off'), true)}
          {field('city', text('text', 'off'))}
          {field('state', text('text', 'off'))}
          {field('zipCode', text('text', 'off'))}
        </div>
      </fieldset>
      <fieldset className="form-section">
        <legend className="form-section__title">{t('patientForm.sections.medical')}</legend>
        <div className="form-grid">
          {field('medicalHistory', area, true)}
          {field('currentMedications', area, true)}
          {field('allergies', area, true)}
          {field('emergencyContact', text('text', 'off'))}
          {field('emergencyPhone', text('tel', 'off'))}
        </div>
      </fieldset>
    </>
  );
}

interface ControlProps {
  id: string;
  name: string;
  value: string;
  disabled: boolean;
  'aria-invalid': true | undefined;
  'aria-required': true | undefined;
  'aria-describedby': string | undefined;
  onChange: (event: { target: { value: string } }) => void;
}
