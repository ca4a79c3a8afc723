import { ArrowLeft, Check, Stethoscope, UserRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Role } from '../../api/client';
import { paths } from '../../app/paths';

interface RoleCardProps {
  role: Role;
  icon: ReactNode;
  points: string[];
}

function RoleCard({ role, icon, points }: RoleCardProps) {
  const { t } = useTranslation();
  const headingId = `role-${role}-title`;
  return (
    <section className="card role-card" aria-labelledby={headingId}>
      <div className="role-card__icon" aria-hidden="true">
        {icon}
      </div>
      <h2 id={headingId} className="role-card__title">
        {t(`roles.${role}.title`)}
      </h2>
      <p className="role-card__text">{t(`roles.${role}.text`)}</p>
      <ul className="check-list">
        {points.map((point) => (
          <li key={point}>
            <Check aria-hidden="true" size={16} />
            <span>{point}</span>
          </li>
        ))}
      </ul>
      <div className="role-card__actions">
        <Link className="button button--primary button--block" to={paths.login} state={{ role }}>
          {t(`roles.${role}.signIn`)}
        </Link>
        <Link className="button button--secondary button--block" to={paths.signup} state={{ role }}>
          {t(`roles.${role}.signUp`)}
        </Link>
      </div>
    </section>
  );
}

export function RoleSelectPage() {
  const { t } = useTranslation();
  return (
    <div className="role-select">
      <header className="role-select__header">
        <h1>{t('roles.title')}</h1>
        <p>{t('roles.subtitle')}</p>
      </header>
      <div className="role-select__grid">
        <RoleCard
          role="doctor"
          icon={<Stethoscope size={28} />}
          points={[
            t('roles.doctor.points.patients'),
            t('roles.doctor.points.screenings'),
            t('roles.doctor.points.results'),
          ]}
        />
        <RoleCard
          role="user"
          icon={<UserRound size={28} />}
          points={[t('roles.user.points.dashboard'), t('roles.user.points.results'), t('roles.user.points.progress')]}
        />
      </div>
      <p className="role-select__back">
        <Link to={paths.welcome} className="link-with-icon">
          <ArrowLeft aria-hidden="true" size={16} />
          {t('roles.back')}
        </Link>
      </p>
    </div>
  );
}
