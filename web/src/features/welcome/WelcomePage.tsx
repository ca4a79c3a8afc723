import { Activity, ClipboardList, FileText, HeartPulse, Stethoscope, UserRound, Waves } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { ValidatedModels } from './ValidatedModels';

function CtaLink({ children, variant = 'primary' }: { children: ReactNode; variant?: 'primary' | 'secondary' }) {
  return (
    <Link to={paths.roleSelection} className={`button button--${variant} button--large`}>
      {children}
    </Link>
  );
}

const FEATURES = [
  { key: 'ecg', icon: <Activity size={24} /> },
  { key: 'pcg', icon: <Stethoscope size={24} /> },
  { key: 'ppg', icon: <Waves size={24} /> },
  { key: 'clinical', icon: <ClipboardList size={24} /> },
] as const;

const STEPS = ['upload', 'analysis', 'report', 'review'] as const;

export function WelcomePage() {
  const { t } = useTranslation();
  return (
    <div className="welcome">
      <section className="welcome-hero" aria-labelledby="welcome-title">
        <p className="welcome-hero__eyebrow">
          <HeartPulse aria-hidden="true" size={18} />
          {t('welcome.heroEyebrow')}
        </p>
        <h1 id="welcome-title" className="welcome-hero__title">
          {t('welcome.heroTitle')}
        </h1>
        <p className="welcome-hero__text">{t('welcome.heroText')}</p>
        <div className="welcome-hero__actions">
          <CtaLink>{t('welcome.getStarted')}</CtaLink>
          <CtaLink variant="secondary">{t('welcome.signIn')}</CtaLink>
        </div>
        <p className="welcome-hero__disclaimer">{t('welcome.disclaimer')}</p>
      </section>

      <section className="welcome-section" aria-labelledby="welcome-features">
        <h2 id="welcome-features" className="welcome-section__title">
          {t('welcome.featuresTitle')}
        </h2>
        <ul className="feature-grid">
          {FEATURES.map(({ key, icon }) => (
            <li key={key} className="card feature-card">
              <span className="feature-card__icon" aria-hidden="true">
                {icon}
              </span>
              <h3>{t(`welcome.features.${key}.title`)}</h3>
              <p>{t(`welcome.features.${key}.text`)}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="welcome-section" aria-labelledby="welcome-steps">
        <h2 id="welcome-steps" className="welcome-section__title">
          {t('welcome.stepsTitle')}
        </h2>
        <ol className="steps">
          {STEPS.map((key, index) => (
            <li key={key} className="steps__item">
              <span className="steps__number" aria-hidden="true">
                {index + 1}
              </span>
              <div>
                <h3>{t(`welcome.steps.${key}.title`)}</h3>
                <p>{t(`welcome.steps.${key}.text`)}</p>
              </div>
            </li>
          ))}
        </ol>
        <div className="welcome-section__cta">
          <CtaLink>{t('welcome.instantReport')}</CtaLink>
        </div>
      </section>

      <ValidatedModels />

      <section className="welcome-section" aria-labelledby="welcome-audience">
        <h2 id="welcome-audience" className="welcome-section__title">
          {t('welcome.audienceTitle')}
        </h2>
        <div className="audience-grid">
          <div className="card audience-card">
            <span className="feature-card__icon" aria-hidden="true">
              <Stethoscope size={24} />
            </span>
            <h3>{t('welcome.clinicians.title')}</h3>
            <p>{t('welcome.clinicians.text')}</p>
            <CtaLink>{t('welcome.accessDashboard')}</CtaLink>
          </div>
          <div className="card audience-card">
            <span className="feature-card__icon" aria-hidden="true">
              <UserRound size={24} />
            </span>
            <h3>{t('welcome.patients.title')}</h3>
            <p>{t('welcome.patients.text')}</p>
            <CtaLink variant="secondary">{t('welcome.checkHeart')}</CtaLink>
          </div>
        </div>
      </section>

      <footer className="welcome-footer">
        <FileText aria-hidden="true" size={16} />
        <span>{t('welcome.footer')}</span>
      </footer>
    </div>
  );
}
