import { Activity, ClipboardList, Inbox, Stethoscope, Waves } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { displayNameOf, useCurrentUser } from '../../lib/session';

const MODELS = [
  { key: 'clinical', icon: <ClipboardList size={22} /> },
  { key: 'pcg', icon: <Stethoscope size={22} /> },
  { key: 'ppg', icon: <Waves size={22} /> },
  { key: 'ecg', icon: <Activity size={22} /> },
] as const;

export function HomePage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  return (
    <div className="page">
      <PageHeader
        title={t('home.title', { name: displayNameOf(user) })}
        subtitle={t('home.subtitle')}
        actions={
          user.role === 'doctor' ? (
            <Link to={paths.intake} className="button button--primary">
              {t('home.startAnalysis')}
            </Link>
          ) : undefined
        }
      />

      <section className="section" aria-labelledby="home-models">
        <h2 id="home-models" className="section__title">
          {t('home.modelsTitle')}
        </h2>
        <p className="section__text">{t('home.modelsText')}</p>
        <ul className="model-grid">
          {MODELS.map(({ key, icon }) => (
            <li key={key} className="card model-card">
              <span className="model-card__icon" aria-hidden="true">
                {icon}
              </span>
              <div className="model-card__body">
                <h3>{t(`home.models.${key}.title`)}</h3>
                <p>{t(`home.models.${key}.text`)}</p>
              </div>
              <span className="badge badge--muted">{t('home.notAvailable')}</span>
            </li>
          ))}
        </ul>
      </section>

      <section className="section card" aria-labelledby="home-activity">
        <h2 id="home-activity" className="section__title">
          {t('home.activityTitle')}
        </h2>
        <EmptyState icon={<Inbox size={28} />} title={t('home.noActivity')} text={t('home.noActivityText')} />
      </section>
    </div>
  );
}
