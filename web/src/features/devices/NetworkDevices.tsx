import { Copy, Network, Plus, RefreshCw } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeviceType, NetworkDevice, RegisteredDevice } from '../../api/devices';
import { EmptyState } from '../../components/EmptyState';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Modal } from '../../components/Modal';
import { PredictionResultView } from '../../components/PredictionResultView';
import { fetchWaveformWindow } from '../../api/waveforms';
import { Spinner } from '../../components/Spinner';
import { apiErrorMessage } from '../../lib/apiErrors';
import { formatDateTime } from '../../lib/format';
import {
  useDeviceRecordings,
  useDevices,
  useRegisterDevice,
  useRenameDevice,
  useRevokeDevice,
  useRotateToken,
} from './api';

const TYPES: DeviceType[] = ['ECG', 'PCG', 'PPG'];

/**
 * Spec §2 "Network Devices", made real: the doctor's registered devices with their online state
 * (from the last heartbeat), registering one (its token shown once), Configure (rename, new token,
 * revoke) and Test (the last recording it sent and its analysis).
 */
export function NetworkDevices() {
  const { t } = useTranslation();
  const devices = useDevices();
  const [adding, setAdding] = useState(false);
  const [token, setToken] = useState<RegisteredDevice | null>(null);
  const [configuring, setConfiguring] = useState<NetworkDevice | null>(null);
  const [testing, setTesting] = useState<NetworkDevice | null>(null);
  const list = devices.data ?? [];
  const online = list.filter((d) => d.status === 'online').length;

  return (
    <section className="card devices-section" aria-labelledby="devices-network">
      <div className="devices-section__header">
        <h2 id="devices-network" className="section__title">
          <Network aria-hidden="true" size={20} /> {t('devices.networkTitle')}
        </h2>
        <div className="devices-section__tools">
          <span className="muted small">{t('devices.network.onlineCount', { count: online, total: list.length })}</span>
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={() => void devices.refetch()}
            disabled={devices.isFetching}
            aria-label={t('devices.refresh')}
            title={t('devices.refresh')}
          >
            <RefreshCw aria-hidden="true" size={16} className={devices.isFetching ? 'spin' : undefined} />
          </button>
          <button type="button" className="button button--primary button--small" onClick={() => setAdding(true)}>
            <Plus aria-hidden="true" size={16} /> {t('devices.network.add')}
          </button>
        </div>
      </div>
      {devices.isPending ? (
        <Spinner label={t('devices.network.loading')} />
      ) : devices.isError ? (
        <ErrorBanner message={apiErrorMessage(devices.error, t('devices.network.loadFailed'), t)} />
      ) : list.length === 0 ? (
        <EmptyState
          icon={<Network size={28} />}
          title={t('devices.networkEmpty')}
          text={t('devices.network.emptyText')}
        >
          <button type="button" className="button button--secondary" onClick={() => setAdding(true)}>
            {t('devices.network.add')}
          </button>
        </EmptyState>
      ) : (
        <ul className="device-list">
          {list.map((device) => (
            <li key={device.id} className="device-item" data-testid="network-device">
              <div className="device-item__head">
                <div>
                  <p className="device-item__name">{device.name}</p>
                  <p className="muted small">
                    {t('devices.network.typeDevice', { type: device.type })}
                    {' · '}
                    {device.address ?? t('devices.network.noAddress')}
                  </p>
                  <p className="muted small">
                    {device.lastSeenAt
                      ? t('devices.network.lastSeen', { time: formatDateTime(device.lastSeenAt) })
                      : t('devices.network.neverSeen')}
                  </p>
                </div>
                <span className={`badge ${device.status === 'online' ? 'badge--success' : 'badge--muted'}`}>
                  {t(`devices.network.status.${device.status}`)}
                </span>
              </div>
              <div className="device-item__controls">
                <button
                  type="button"
                  className="button button--secondary button--small"
                  onClick={() => setConfiguring(device)}
                >
                  {t('devices.network.configure')}
                </button>
                <button
                  type="button"
                  className="button button--secondary button--small"
                  onClick={() => setTesting(device)}
                >
                  {t('devices.network.test')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {adding ? (
        <RegisterDialog
          onClose={() => setAdding(false)}
          onRegistered={(registered) => {
            setAdding(false);
            setToken(registered);
          }}
        />
      ) : null}
      {token ? <TokenDialog registered={token} onClose={() => setToken(null)} /> : null}
      {configuring ? (
        <ConfigureDialog
          device={configuring}
          onClose={() => setConfiguring(null)}
          onToken={(registered) => {
            setConfiguring(null);
            setToken(registered);
          }}
        />
      ) : null}
      {testing ? <TestDialog device={testing} onClose={() => setTesting(null)} /> : null}
    </section>
  );
}

function RegisterDialog({
  onClose,
  onRegistered,
}: {
  onClose: () => void;
  onRegistered: (d: RegisteredDevice) => void;
}) {
  const { t } = useTranslation();
  const register = useRegisterDevice();
  const [name, setName] = useState('');
  const [type, setType] = useState<DeviceType>('ECG');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    register.mutate({ name, type }, { onSuccess: onRegistered });
  };
  return (
    <Modal title={t('devices.network.registerTitle')} onClose={onClose}>
      <form className="device-form" onSubmit={submit}>
        <div className="field">
          <label htmlFor="device-name" className="field__label field__label--required">
            {t('devices.network.name')}
          </label>
          <input
            id="device-name"
            className="input"
            value={name}
            required
            maxLength={80}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="device-type" className="field__label">
            {t('devices.network.type')}
          </label>
          <select
            id="device-type"
            className="select"
            value={type}
            onChange={(event) => setType(event.target.value as DeviceType)}
          >
            {TYPES.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </div>
        <ErrorBanner
          message={register.isError ? apiErrorMessage(register.error, t('devices.network.saveFailed'), t) : null}
        />
        <div className="form-actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={register.isPending}>
            {t('devices.network.register')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

function TokenDialog({ registered, onClose }: { registered: RegisteredDevice; onClose: () => void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const example = `cardio device simulate --type ${registered.device.type.toLowerCase()} --file recording.csv --url ${origin} --token ${registered.token}`;
  return (
    <Modal title={t('devices.network.tokenTitle', { name: registered.device.name })} onClose={onClose}>
      <p>{t('devices.network.tokenOnce')}</p>
      <div className="token-box">
        <code data-testid="device-token">{registered.token}</code>
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => {
            void navigator.clipboard
              ?.writeText(registered.token)
              .then(() => setCopied(true))
              .catch(() => setCopied(false));
          }}
        >
          <Copy aria-hidden="true" size={14} /> {copied ? t('devices.network.copied') : t('devices.network.copy')}
        </button>
      </div>
      <p className="muted small">{t('devices.network.tokenUse')}</p>
      <pre className="token-example">{example}</pre>
      <div className="form-actions">
        <button type="button" className="button button--primary" onClick={onClose}>
          {t('devices.network.done')}
        </button>
      </div>
    </Modal>
  );
}

function ConfigureDialog({
  device,
  onClose,
  onToken,
}: {
  device: NetworkDevice;
  onClose: () => void;
  onToken: (d: RegisteredDevice) => void;
}) {
  const { t } = useTranslation();
  const rename = useRenameDevice();
  const rotate = useRotateToken();
  const revoke = useRevokeDevice();
  const [name, setName] = useState(device.name);
  const [confirmRevoke, setConfirmRevoke] = useState(false);
  const failure = rename.error ?? rotate.error ?? revoke.error;
  return (
    <Modal title={t('devices.network.configureTitle', { name: device.name })} onClose={onClose}>
      <form
        className="device-form"
        onSubmit={(event) => {
          event.preventDefault();
          rename.mutate({ id: device.id, name }, { onSuccess: onClose });
        }}
      >
        <div className="field">
          <label htmlFor="device-rename" className="field__label">
            {t('devices.network.name')}
          </label>
          <input
            id="device-rename"
            className="input"
            value={name}
            required
            maxLength={80}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <div className="form-actions">
          <button type="submit" className="button button--primary" disabled={rename.isPending}>
            {t('devices.network.rename')}
          </button>
        </div>
      </form>
      <div className="device-form__danger">
        <p className="muted small">{t('devices.network.rotateHelp')}</p>
        <button
          type="button"
          className="button button--secondary"
          disabled={rotate.isPending}
          onClick={() => rotate.mutate(device.id, { onSuccess: onToken })}
        >
          {t('devices.network.rotate')}
        </button>
        <p className="muted small">{t('devices.network.revokeHelp')}</p>
        {confirmRevoke ? (
          <div className="form-actions">
            <button type="button" className="button button--secondary" onClick={() => setConfirmRevoke(false)}>
              {t('common.cancel')}
            </button>
            <button
              type="button"
              className="button button--danger"
              disabled={revoke.isPending}
              onClick={() => revoke.mutate(device.id, { onSuccess: onClose })}
            >
              {t('devices.network.revokeConfirm')}
            </button>
          </div>
        ) : (
          <button type="button" className="button button--danger" onClick={() => setConfirmRevoke(true)}>
            {t('devices.network.revoke')}
          </button>
        )}
      </div>
      <ErrorBanner message={failure ? apiErrorMessage(failure, t('devices.network.saveFailed'), t) : null} />
    </Modal>
  );
}

function TestDialog({ device, onClose }: { device: NetworkDevice; onClose: () => void }) {
  const { t } = useTranslation();
  const recordings = useDeviceRecordings(device.id);
  const last = recordings.data?.[0];
  return (
    <Modal title={t('devices.network.testTitle', { name: device.name })} onClose={onClose}>
      <p className="muted small">
        {t(`devices.network.status.${device.status}`)}
        {' · '}
        {device.lastSeenAt
          ? t('devices.network.lastSeen', { time: formatDateTime(device.lastSeenAt) })
          : t('devices.network.neverSeen')}
      </p>
      {recordings.isPending ? (
        <Spinner label={t('devices.network.loading')} />
      ) : recordings.isError ? (
        <ErrorBanner message={apiErrorMessage(recordings.error, t('devices.network.loadFailed'), t)} />
      ) : last ? (
        <>
          <p>
            {t('devices.network.lastRecording', {
              file: last.fileName,
              time: formatDateTime(last.receivedAt),
            })}
          </p>
          <PredictionResultView result={last.analysis.result} loadWaveform={fetchWaveformWindow} />
        </>
      ) : (
        <EmptyState title={t('devices.network.noRecordings')} text={t('devices.network.noRecordingsText')} />
      )}
    </Modal>
  );
}
