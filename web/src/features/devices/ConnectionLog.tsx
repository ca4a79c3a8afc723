import { CircleAlert, CircleCheck, Info, ScrollText } from 'lucide-react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { LogEntry } from '../../api/devices';
import { EmptyState } from '../../components/EmptyState';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Spinner } from '../../components/Spinner';
import { apiErrorMessage } from '../../lib/apiErrors';
import { formatDateTime } from '../../lib/format';
import { useDeviceLog } from './api';

const ICONS = {
  success: <CircleCheck aria-hidden="true" size={16} />,
  info: <Info aria-hidden="true" size={16} />,
  warning: <CircleAlert aria-hidden="true" size={16} />,
} as const;

const EVENTS = [
  'device_registered',
  'token_rotated',
  'device_revoked',
  'device_online',
  'device_offline',
  'recording_received',
  'recording_refused',
  'recording_attached',
  'serial_connected',
  'serial_disconnected',
  'serial_error',
  'serial_test_data',
] as const;

/** An entry in the user's language: the server stores an event code, the device and a detail. */
export function logMessage(entry: LogEntry, t: TFunction): string {
  const event = EVENTS.find((e) => e === entry.event);
  if (!event) return [entry.event, entry.device, entry.detail].filter(Boolean).join(' ');
  if (event === 'serial_disconnected' && entry.detail === 'lost') {
    return t('devices.log.serial_lost', { device: entry.device });
  }
  // The device type is stored as its code (`ecg`); the page shows it as the spec does (ECG).
  const detail = event === 'device_registered' ? entry.detail.toUpperCase() : entry.detail;
  return t(`devices.log.${event}`, { device: entry.device, detail });
}

/** Spec §2 "Connection Log": the user's device events, newest first, from the server. */
export function ConnectionLog() {
  const { t } = useTranslation();
  const log = useDeviceLog();
  return (
    <section className="card devices-section" aria-labelledby="devices-log">
      <h2 id="devices-log" className="section__title">
        <ScrollText aria-hidden="true" size={20} /> {t('devices.log.title')}
      </h2>
      {log.isPending ? (
        <Spinner label={t('devices.log.loading')} />
      ) : log.isError ? (
        <ErrorBanner message={apiErrorMessage(log.error, t('devices.log.loadFailed'), t)} />
      ) : log.data.length === 0 ? (
        <EmptyState title={t('devices.log.empty')} text={t('devices.log.emptyText')} />
      ) : (
        <ol className="connection-log" aria-live="polite">
          {log.data.map((entry, index) => (
            <li key={`${entry.time}-${index}`} className={`connection-log__entry connection-log__entry--${entry.type}`}>
              {ICONS[entry.type]}
              <time dateTime={entry.time} className="muted small">
                {formatDateTime(entry.time)}
              </time>
              <span>{logMessage(entry, t)}</span>
              <span className="visually-hidden">{t(`devices.log.type.${entry.type}`)}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
