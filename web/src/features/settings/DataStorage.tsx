/**
 * The Settings page's server-wide settings, which belong to administrators (the first account of an
 * installation, and whoever `cardio admin grant` names): the Data & Storage section (storage figures
 * and the data folder, or the bucket the recordings are kept in, Auto Backup, "Back up now" and the list of backups under Manage) and Data
 * Encryption (in Privacy & Security). On PostgreSQL the server makes no backups and the section says
 * whose job they are.
 *
 * Any other account sees the Data & Storage section with one sentence saying who manages them, and
 * none of the administrators' requests is made for it (the server would answer 403).
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, type BackupList, type DataSettingsView } from '../../api/client';
import { ErrorBanner } from '../../components/ErrorBanner';
import { serverErrorText } from '../../lib/apiErrors';
import { useCurrentUser } from '../../lib/session';
import { useBackups, useCreateBackup, useDataSettings, useSaveDataSettings } from './api/dataStorage';
import { formatBytes, useStorageUsage } from './api/system';
import { Toggle } from './Toggle';

function StorageFigures() {
  const { t } = useTranslation();
  const usage = useStorageUsage();
  if (usage.isPending) return <p className="muted">{t('app.loading')}</p>;
  if (usage.isError) return <p className="muted">{t('settings.storageUnavailable')}</p>;
  return (
    <dl className="details">
      <div>
        <dt>{t('settings.storageUsage')}</dt>
        <dd>
          {t('settings.storageUsageValue', {
            database: formatBytes(usage.data.database_bytes),
            recordings: formatBytes(usage.data.blob_bytes),
            files: usage.data.blob_files,
          })}
        </dd>
      </div>
      <div>
        <dt>{t('settings.storageLocation')}</dt>
        <dd>
          <code>{usage.data.data_dir}</code>
          <p className="field__help">{t('settings.storageLocationHelp')}</p>
        </dd>
      </div>
      {usage.data.blob_store && (
        <div>
          <dt>{t('settings.storageRecordings')}</dt>
          <dd>
            <code>{usage.data.blob_store}</code>
            <p className="field__help">{t('settings.storageRecordingsHelp')}</p>
          </dd>
        </div>
      )}
    </dl>
  );
}

function formatTime(iso: string, language: string): string {
  return new Date(iso).toLocaleString(language, { dateStyle: 'medium', timeStyle: 'short' });
}

function BackupTable({ list }: { list: BackupList }) {
  const { t, i18n } = useTranslation();
  if (list.backups.length === 0) return <p className="muted">{t('settings.backupsEmpty')}</p>;
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="visually-hidden">{t('settings.backupsCaption', { keep: list.keep })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('settings.backupTime')}</th>
            <th scope="col">{t('settings.backupSize')}</th>
            <th scope="col">{t('settings.backupContents')}</th>
          </tr>
        </thead>
        <tbody>
          {list.backups.map((backup) => (
            <tr key={backup.id}>
              <td>
                <time dateTime={backup.created_at}>{formatTime(backup.created_at, i18n.language)}</time>
              </td>
              <td>{formatBytes(backup.size_bytes)}</td>
              <td>
                {t('settings.backupContentsValue', {
                  patients: backup.counts.patients,
                  analyses: backup.counts.analyses,
                  files: backup.counts.blobs,
                })}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Backups({ settings }: { settings: DataSettingsView }) {
  const { t, i18n } = useTranslation();
  const listId = useId();
  const [managing, setManaging] = useState(false);
  const backups = useBackups();
  const create = useCreateBackup();
  const save = useSaveDataSettings();

  if (backups.isPending) return <p className="muted">{t('app.loading')}</p>;
  if (backups.isError) return <p className="muted">{t('settings.backupsUnavailable')}</p>;
  const list = backups.data;
  if (!list.supported) {
    return (
      <div className="toggle-list">
        <Toggle
          label={t('settings.autoBackup')}
          help={t('settings.backupsPostgres')}
          checked={false}
          disabled
          onChange={() => {}}
        />
      </div>
    );
  }
  const createError =
    create.error instanceof ApiError && create.error.detail
      ? t('settings.backupFailedDetail', { detail: serverErrorText(create.error, create.error.detail, t) })
      : create.isError
        ? t('settings.backupFailed')
        : null;
  return (
    <>
      <div className="toggle-list">
        <Toggle
          label={t('settings.autoBackup')}
          help={t('settings.autoBackupHelp', { keep: list.keep })}
          checked={settings.auto_backup}
          disabled={save.isPending}
          onChange={(checked) => save.mutate({ encrypt_blobs: settings.encrypt_blobs, auto_backup: checked })}
        />
      </div>
      <ErrorBanner message={save.isError ? t('settings.dataSettingsFailed') : null} />
      <ErrorBanner message={createError} />
      <p className="muted small" role="status">
        {create.isPending
          ? t('settings.backingUp')
          : list.last_backup_at
            ? t('settings.lastBackup', { time: formatTime(list.last_backup_at, i18n.language) })
            : t('settings.noBackupYet')}
      </p>
      <div className="backup-actions">
        <button
          type="button"
          className="button button--primary button--small"
          disabled={create.isPending}
          onClick={() => create.mutate()}
        >
          {create.isPending ? t('settings.backingUp') : t('settings.backupNow')}
        </button>
        <button
          type="button"
          className="button button--secondary button--small"
          aria-expanded={managing}
          aria-controls={listId}
          onClick={() => setManaging((open) => !open)}
        >
          {t('settings.manageBackups')}
        </button>
      </div>
      <div id={listId} className="backup-list" hidden={!managing}>
        <h3>{t('settings.backupsTitle')}</h3>
        <p className="field__help">{t('settings.backupsFolder', { dir: list.backups_dir })}</p>
        <BackupTable list={list} />
      </div>
    </>
  );
}

function Switches() {
  const { t } = useTranslation();
  const settings = useDataSettings();
  if (settings.isPending) return <p className="muted">{t('app.loading')}</p>;
  if (settings.isError) return <p className="muted">{t('settings.dataSettingsUnavailable')}</p>;
  return <Backups settings={settings.data} />;
}

/**
 * Data Encryption (spec §2: in Privacy & Security), a server-wide switch shown to administrators only
 * (the Data & Storage section tells everyone else who manages it), with where the data key comes from.
 */
export function DataEncryption() {
  const user = useCurrentUser();
  return user.isAdmin ? <DataEncryptionSwitch /> : null;
}

function DataEncryptionSwitch() {
  const { t } = useTranslation();
  const settings = useDataSettings();
  const save = useSaveDataSettings();
  if (settings.isPending) return <p className="muted">{t('app.loading')}</p>;
  if (settings.isError) return <p className="muted">{t('settings.dataSettingsUnavailable')}</p>;
  const current = settings.data;
  return (
    <>
      <div className="toggle-list">
        <Toggle
          label={t('settings.dataEncryption')}
          help={t('settings.dataEncryptionHelp')}
          checked={current.encrypt_blobs}
          disabled={save.isPending}
          onChange={(checked) => save.mutate({ encrypt_blobs: checked, auto_backup: current.auto_backup })}
        />
      </div>
      <p className="field__help">
        {current.key_fingerprint
          ? t(current.key_source === 'environment' ? 'settings.dataKeyEnvironment' : 'settings.dataKeyFile', {
              fingerprint: current.key_fingerprint,
            })
          : t('settings.dataKeyNone')}
      </p>
      <ErrorBanner message={save.isError ? t('settings.dataSettingsFailed') : null} />
    </>
  );
}

/**
 * Data & Storage: the figures, the backups and Auto Backup for an administrator; for anyone else, who
 * manages them (no request is made: the server answers 403 to other accounts).
 */
export function DataStorage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  return (
    <section className="card settings-section" aria-labelledby="settings-storage">
      <h2 id="settings-storage" className="section__title">
        {t('settings.dataStorage')}
      </h2>
      {user.isAdmin ? (
        <>
          <StorageFigures />
          <Switches />
        </>
      ) : (
        <p className="muted">{t('settings.adminManaged')}</p>
      )}
    </section>
  );
}
