import { useTranslation } from 'react-i18next';
import { LanguageSelect, ThemeSelect } from '../../components/PreferenceControls';
import { PageHeader } from '../../components/PageHeader';
import { useHealth } from './api/health';

function About() {
  const { t } = useTranslation();
  const health = useHealth();
  return (
    <section className="card settings-section" aria-labelledby="settings-about">
      <h2 id="settings-about" className="section__title">
        {t('settings.about')}
      </h2>
      {health.isPending ? (
        <p className="muted">{t('app.loading')}</p>
      ) : health.isError ? (
        <p className="muted">{t('settings.serverUnavailable')}</p>
      ) : (
        <dl className="details">
          <div>
            <dt>{t('settings.version')}</dt>
            <dd>{health.data.version}</dd>
          </div>
          <div>
            <dt>{t('settings.build')}</dt>
            <dd>{health.data.build}</dd>
          </div>
          <div>
            <dt>{t('settings.database')}</dt>
            <dd>{health.data.database === 'postgres' ? 'PostgreSQL' : 'SQLite'}</dd>
          </div>
        </dl>
      )}
    </section>
  );
}

export function SettingsPage() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <PageHeader title={t('settings.title')} subtitle={t('settings.subtitle')} />
      <section className="card settings-section" aria-labelledby="settings-application">
        <h2 id="settings-application" className="section__title">
          {t('settings.application')}
        </h2>
        <div className="settings-grid">
          <div>
            <ThemeSelect showLabel />
            <p className="field__help">{t('settings.themeHelp')}</p>
          </div>
          <div>
            <LanguageSelect showLabel names="translated" />
          </div>
        </div>
        <p className="muted small">{t('settings.saved')}</p>
      </section>
      <About />
    </div>
  );
}
