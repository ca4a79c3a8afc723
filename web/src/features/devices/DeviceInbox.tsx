import { Inbox } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/EmptyState';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Spinner } from '../../components/Spinner';
import { apiErrorMessage } from '../../lib/apiErrors';
import { formatDateTime } from '../../lib/format';
import { useDeviceRecordings } from './api';
import { findingText } from '../../lib/clinicalText';

/**
 * The recordings network devices pushed, newest first, with their analysis; they are attached to a
 * screening from the screening's recording step.
 */
export function DeviceInbox() {
  const { t } = useTranslation();
  const recordings = useDeviceRecordings(null);
  return (
    <section className="card devices-section" aria-labelledby="devices-inbox">
      <h2 id="devices-inbox" className="section__title">
        <Inbox aria-hidden="true" size={20} /> {t('devices.inbox.title')}
      </h2>
      {recordings.isPending ? (
        <Spinner label={t('devices.inbox.loading')} />
      ) : recordings.isError ? (
        <ErrorBanner message={apiErrorMessage(recordings.error, t('devices.inbox.loadFailed'), t)} />
      ) : recordings.data.length === 0 ? (
        <EmptyState title={t('devices.inbox.empty')} text={t('devices.inbox.emptyText')} />
      ) : (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">{t('devices.inbox.title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('devices.inbox.received')}</th>
                <th scope="col">{t('devices.inbox.device')}</th>
                <th scope="col">{t('devices.inbox.file')}</th>
                <th scope="col">{t('devices.inbox.result')}</th>
                <th scope="col">{t('devices.inbox.screening')}</th>
              </tr>
            </thead>
            <tbody>
              {recordings.data.map((r) => (
                <tr key={r.id} data-testid="inbox-recording">
                  <td>{formatDateTime(r.receivedAt)}</td>
                  <td>
                    {r.deviceName} <span className="muted small">({r.deviceType})</span>
                  </td>
                  <td>{r.fileName}</td>
                  <td>{findingText(r.analysis.modality, r.analysis.result.label, r.analysis.result.prediction)}</td>
                  <td>
                    {r.attachedAt ? (
                      <span className="badge badge--success">
                        {r.analysis.patientName ?? t('devices.inbox.attached')}
                      </span>
                    ) : (
                      <span className="badge badge--muted">{t('devices.inbox.notAttached')}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
