import { UserRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { Screening } from '../../api/client';
import { formatDate } from '../../lib/format';

/** Who the screening is for: name, date of birth and gender (spec §2, clinical data). */
export function ScreeningPatient({ screening }: { screening: Screening }) {
  const { t } = useTranslation();
  const { patient } = screening;
  return (
    <section className="card patient-card" aria-labelledby="screening-patient">
      <span className="avatar avatar--large" aria-hidden="true">
        <UserRound size={28} />
      </span>
      <div>
        <h2 id="screening-patient" className="visually-hidden">
          {t('clinical.patientTitle')}
        </h2>
        <p className="patient-card__name">
          {patient.firstName} {patient.lastName}
        </p>
      </div>
      <dl className="details">
        <div>
          <dt>{t('patientForm.fields.dateOfBirth')}</dt>
          <dd>{formatDate(patient.dateOfBirth)}</dd>
        </div>
        <div>
          <dt>{t('patientForm.fields.gender')}</dt>
          <dd>{t(`patientForm.gender.${patient.gender}`)}</dd>
        </div>
      </dl>
    </section>
  );
}
