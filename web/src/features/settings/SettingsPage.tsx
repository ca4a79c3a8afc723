import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionTimeout, Settings } from '../../api/client';
import { ErrorBanner } from '../../components/ErrorBanner';
import { LanguageSelect, ThemeSelect } from '../../components/PreferenceControls';
import { PageHeader } from '../../components/PageHeader';
import { Spinner } from '../../components/Spinner';
import { useCurrentUser } from '../../lib/session';
import { useHealth } from './api/health';
import { useLoadedModels } from './api/system';
import { useSaveSettings, useSettings, type SettingsChange } from './api/settings';
import { DataEncryption, DataStorage } from './DataStorage';
import { ScreenCalibration } from './ScreenCalibration';
import { Toggle } from './Toggle';

/** Spec §9: the session timeout options, in the order shown. */
export const SESSION_TIMEOUTS: readonly SessionTimeout[] = ['15m', '30m', '1h', 'never'];

type NotificationKey = 'notifyTestResults' | 'notifyDeviceAlerts' | 'notifyPatientUpdates';
const NOTIFICATIONS: readonly NotificationKey[] = ['notifyTestResults', 'notifyDeviceAlerts', 'notifyPatientUpdates'];

function About() {
  const { t } = useTranslation();
  const health = useHealth();
  const models = useLoadedModels();
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
          <div>
            <dt>{t('settings.environment')}</dt>
            <dd>{health.data.environment}</dd>
          </div>
          <div>
            <dt>{t('settings.models')}</dt>
            <dd>
              {models.isSuccess
                ? models.data.map((m) => `${m.id} ${m.version}`).join(', ')
                : models.isError
                  ? t('settings.serverUnavailable')
                  : t('app.loading')}
            </dd>
          </div>
          <div>
            <dt>{t('settings.releaseNotes')}</dt>
            <dd>
              <a href="/api/release-notes" target="_blank" rel="noreferrer">
                {t('settings.releaseNotesLink')}
              </a>
            </dd>
          </div>
        </dl>
      )}
    </section>
  );
}

/**
 * Notifications (spec §2): the three toggles, saved to the account, for a doctor (they are about the
 * doctor's results, patients and devices); an administrator is also told that server-wide changes are
 * always notified. A patient account has no notifications, so no section.
 */
function Notifications({
  settings,
  save,
  doctor,
  admin,
}: {
  settings: Settings;
  save: (change: SettingsChange) => void;
  doctor: boolean;
  admin: boolean;
}) {
  const { t } = useTranslation();
  return (
    <section className="card settings-section" aria-labelledby="settings-notifications">
      <h2 id="settings-notifications" className="section__title">
        {t('settings.notifications')}
      </h2>
      {doctor ? (
        <>
          <p className="muted small">{t('settings.notificationsNote')}</p>
          <div className="toggle-list">
            {NOTIFICATIONS.map((key) => (
              <Toggle
                key={key}
                label={t(`settings.${key}`)}
                help={t(`settings.${key}Help`)}
                checked={settings[key]}
                onChange={(checked) => save({ [key]: checked })}
              />
            ))}
          </div>
        </>
      ) : null}
      {admin ? <p className="field__help">{t('settings.adminNotifications')}</p> : null}
    </section>
  );
}

/** Privacy & Security (spec §2): Data Encryption (server-wide, administrators) and the session timeout. */
function PrivacySecurity({ settings, save }: { settings: Settings; save: (change: SettingsChange) => void }) {
  const { t } = useTranslation();
  const timeoutId = useId();
  return (
    <section className="card settings-section" aria-labelledby="settings-security">
      <h2 id="settings-security" className="section__title">
        {t('settings.privacySecurity')}
      </h2>
      <DataEncryption />
      <div className="settings-grid">
        <div className="field">
          <label htmlFor={timeoutId} className="field__label">
            {t('settings.sessionTimeout')}
          </label>
          <select
            id={timeoutId}
            className="select"
            value={settings.sessionTimeout}
            aria-describedby={`${timeoutId}-help`}
            onChange={(event) => {
              const value = SESSION_TIMEOUTS.find((option) => option === event.target.value);
              if (value) save({ sessionTimeout: value });
            }}
          >
            {SESSION_TIMEOUTS.map((option) => (
              <option key={option} value={option}>
                {t(`settings.timeout.${option}`)}
              </option>
            ))}
          </select>
          <p className="field__help" id={`${timeoutId}-help`}>
            {t('settings.sessionTimeoutHelp')}
          </p>
        </div>
      </div>
    </section>
  );
}

export function SettingsPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const doctor = user.role === 'doctor';
  const settings = useSettings();
  const saving = useSaveSettings();
  const save = (change: SettingsChange) => saving.mutate(change);
  return (
    <div className="page">
      <PageHeader title={t('settings.title')} subtitle={t('settings.subtitle')} />
      <ErrorBanner message={saving.isError ? t('settings.saveFailed') : null} />
      <section className="card settings-section" aria-labelledby="settings-application">
        <h2 id="settings-application" className="section__title">
          {t('settings.application')}
        </h2>
        <div className="settings-grid">
          <div>
            <ThemeSelect showLabel onThemeChange={(theme) => save({ theme })} />
            <p className="field__help">{t('settings.themeHelp')}</p>
          </div>
          <div>
            <LanguageSelect showLabel names="translated" onLanguageChange={(language) => save({ language })} />
          </div>
        </div>
        <p className="muted small" role="status">
          {saving.isPending ? t('settings.saving') : t('settings.savedToAccount')}
        </p>
      </section>
      {settings.isPending ? (
        <Spinner label={t('app.loading')} />
      ) : settings.isError ? (
        <ErrorBanner message={t('settings.loadFailed')} />
      ) : doctor || user.isAdmin ? (
        <Notifications settings={settings.data} save={save} doctor={doctor} admin={user.isAdmin} />
      ) : null}
      <DataStorage />
      {settings.isSuccess ? <PrivacySecurity settings={settings.data} save={save} /> : null}
      {doctor ? <ScreenCalibration /> : null}
      <About />
    </div>
  );
}
