import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Inbox } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { attachDeviceRecording, fetchDeviceRecordings } from '../../../api/devices';
import { queryKeys } from '../../../api/queryKeys';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { apiErrorMessage } from '../../../lib/apiErrors';
import { formatDateTime } from '../../../lib/format';
import './deviceSources.css';
import { findingText } from '../../../lib/clinicalText';
import type { Site } from '../../../lib/auscultation';

/**
 * Recordings a network device pushed into the doctor's inbox, of this step's type and not yet
 * attached: "Use this recording" attaches one to the screening (its analysis becomes the step's;
 * a heart sound's at the auscultation site chosen on the step).
 */
export function DeviceInboxPicker({
  kind,
  screeningId,
  site,
  disabled,
  onAttached,
}: {
  kind: 'ecg' | 'pcg' | 'ppg';
  screeningId: string;
  /** Heart sounds: the site the recording is attached at. */
  site?: Site;
  disabled: boolean;
  onAttached: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const recordings = useQuery({
    queryKey: queryKeys.deviceRecordings(null),
    queryFn: () => fetchDeviceRecordings(null, 20),
    retry: false,
  });
  const attach = useMutation({
    mutationFn: (id: string) => attachDeviceRecording(id, screeningId, site),
    onSuccess: async () => {
      // The screening too: a completed one's combined result now includes the attached recording.
      for (const queryKey of [
        queryKeys.devices,
        queryKeys.analyses,
        queryKeys.screenings,
        queryKeys.patients,
        queryKeys.audit,
        queryKeys.dashboard,
      ]) {
        await queryClient.invalidateQueries({ queryKey });
      }
      onAttached();
    },
  });
  const type = kind.toUpperCase();
  const waiting = (recordings.data ?? []).filter((r) => r.deviceType === type && !r.attachedAt);
  // Nothing to offer (or the inbox cannot be read: the step's other sources still work).
  if (!recordings.isSuccess || waiting.length === 0) return null;
  return (
    <section className="recorder device-inbox" aria-labelledby={`inbox-${kind}-title`}>
      <h3 id={`inbox-${kind}-title`} className="section__title">
        <Inbox aria-hidden="true" size={18} /> {t('devices.record.inboxTitle')}
      </h3>
      <ul className="device-inbox__list">
        {waiting.map((r) => (
          <li key={r.id} data-testid="inbox-choice">
            <span>
              {t('devices.record.inboxRow', {
                device: r.deviceName,
                file: r.fileName,
                time: formatDateTime(r.receivedAt),
              })}
            </span>
            <span className="muted small">
              {findingText(r.analysis.modality, r.analysis.result.label, r.analysis.result.prediction)}
            </span>
            <button
              type="button"
              className="button button--secondary button--small"
              disabled={disabled || attach.isPending}
              onClick={() => attach.mutate(r.id)}
            >
              {t('devices.record.use')}
            </button>
          </li>
        ))}
      </ul>
      <ErrorBanner
        message={attach.isError ? apiErrorMessage(attach.error, t('devices.record.attachFailed'), t) : null}
      />
    </section>
  );
}
