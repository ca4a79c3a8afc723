import { Plus, RefreshCw, Send, Usb } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/EmptyState';
import { ErrorBanner } from '../../components/ErrorBanner';
import { LiveWaveform } from '../../components/waveform/LiveWaveform';
import { useRecentValues, useSerialManager, useSerialPorts } from '../../lib/serial/SerialProvider';
import { BAUD_RATES, DEFAULT_BAUD_RATE, type PortView, type SerialManager } from '../../lib/serial/serialPorts';

/** Manufacturers of the USB-serial chips and boards sensor front ends sit behind, by USB vendor id. */
const VENDORS: Record<number, string> = {
  0x2341: 'Arduino',
  0x2a03: 'Arduino',
  0x0403: 'FTDI',
  0x10c4: 'Silicon Labs',
  0x1a86: 'WCH',
  0x303a: 'Espressif',
  0x239a: 'Adafruit',
  0x0483: 'STMicroelectronics',
  0x16c0: 'PJRC (Teensy)',
  0x2e8a: 'Raspberry Pi',
  0x067b: 'Prolific',
};

/**
 * Spec §2 "USB Serial Devices", made real through Web Serial: the ports this site was granted,
 * "Add device" (the browser's chooser), Connect/Disconnect at a chosen baud rate, send test data,
 * a live waveform of what the port streams, and Refresh. Browsers without Web Serial get an honest
 * "not supported" state.
 */
export function SerialDevices() {
  const { t } = useTranslation();
  const manager = useSerialManager();
  const ports = useSerialPorts(manager);
  const [refreshing, setRefreshing] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const refresh = async () => {
    setRefreshing(true);
    setError(null);
    try {
      await manager.refresh();
    } catch (caught) {
      setError(
        t('devices.serial.refreshFailed', { reason: caught instanceof Error ? caught.message : String(caught) }),
      );
    } finally {
      setRefreshing(false);
    }
  };

  useEffect(() => {
    void manager.refresh().catch(() => undefined);
  }, [manager]);

  const connected = ports.filter((p) => p.state === 'connected').length;
  return (
    <section className="card devices-section" aria-labelledby="devices-serial">
      <div className="devices-section__header">
        <h2 id="devices-serial" className="section__title">
          <Usb aria-hidden="true" size={20} /> {t('devices.serialTitle')}
        </h2>
        {manager.supported ? (
          <div className="devices-section__tools">
            <span className="muted small">
              {t('devices.serial.connectedCount', { count: connected, total: ports.length })}
            </span>
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={() => void refresh()}
              disabled={refreshing}
              aria-label={t('devices.refresh')}
              title={t('devices.refresh')}
            >
              <RefreshCw aria-hidden="true" size={16} className={refreshing ? 'spin' : undefined} />
            </button>
            <button
              type="button"
              className="button button--primary button--small"
              onClick={() => void manager.add().catch((caught: unknown) => setError(String(caught)))}
            >
              <Plus aria-hidden="true" size={16} /> {t('devices.serial.add')}
            </button>
          </div>
        ) : null}
      </div>
      {!manager.supported ? (
        <EmptyState
          icon={<Usb size={28} />}
          title={t('devices.serial.unsupportedTitle')}
          text={t('devices.serial.unsupportedText')}
        />
      ) : (
        <>
          <ErrorBanner message={error} />
          {ports.length === 0 ? (
            <EmptyState icon={<Usb size={28} />} title={t('devices.serialEmpty')} text={t('devices.serial.emptyText')}>
              <button
                type="button"
                className="button button--secondary"
                onClick={() => void refresh()}
                disabled={refreshing}
              >
                {t('devices.refreshList')}
              </button>
            </EmptyState>
          ) : (
            <ul className="device-list">
              {ports.map((port) => (
                <SerialPortItem key={port.id} port={port} manager={manager} />
              ))}
            </ul>
          )}
          <p className="muted small">{t('devices.serial.protocol')}</p>
        </>
      )}
    </section>
  );
}

function SerialPortItem({ port, manager }: { port: PortView; manager: SerialManager }) {
  const { t } = useTranslation();
  const [baud, setBaud] = useState<number>(port.baudRate || DEFAULT_BAUD_RATE);
  const [notice, setNotice] = useState<string | null>(null);
  const isConnected = port.state === 'connected';
  const waveform = useRecentValues(manager, port.id, isConnected);
  const path = port.label || t('devices.serial.unnamedPort');
  const manufacturer = port.vendorId === null ? null : (VENDORS[port.vendorId] ?? null);
  const baudId = `baud-${port.id}`;

  const sendTest = async () => {
    setNotice(t('devices.sendingTestData', { path }));
    try {
      await manager.sendTest(port.id);
    } catch (caught) {
      setNotice(t('devices.serial.sendFailed', { reason: caught instanceof Error ? caught.message : String(caught) }));
    }
  };

  return (
    <li className="device-item" data-testid="serial-port">
      <div className="device-item__head">
        <div>
          <p className="device-item__name">{path}</p>
          <dl className="device-item__facts">
            <div>
              <dt>{t('devices.serial.manufacturer')}</dt>
              <dd>{manufacturer ?? t('devices.serial.notReported')}</dd>
            </div>
            <div>
              <dt>{t('devices.serial.serialNumber')}</dt>
              <dd>{t('devices.serial.notReported')}</dd>
            </div>
          </dl>
        </div>
        <span
          className={`badge ${isConnected ? 'badge--success' : port.state === 'error' ? 'badge--danger' : 'badge--muted'}`}
        >
          {t(`devices.serial.state.${port.state}`)}
        </span>
      </div>
      <div className="device-item__controls">
        <div className="field field--compact">
          <label htmlFor={baudId} className="field__label">
            {t('devices.serial.baudRate')}
          </label>
          <select
            id={baudId}
            className="select"
            value={baud}
            disabled={isConnected || port.state === 'connecting'}
            onChange={(event) => setBaud(Number(event.target.value))}
          >
            {BAUD_RATES.map((rate) => (
              <option key={rate} value={rate}>
                {rate}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          className={`button button--small ${isConnected ? 'button--secondary' : 'button--primary'}`}
          disabled={port.state === 'connecting'}
          onClick={() => {
            setNotice(null);
            void (isConnected ? manager.disconnect(port.id) : manager.connect(port.id, baud));
          }}
        >
          {isConnected ? t('devices.disconnect') : t('devices.connect')}
        </button>
        <button
          type="button"
          className="button button--secondary button--small"
          disabled={!isConnected}
          onClick={() => void sendTest()}
        >
          <Send aria-hidden="true" size={14} /> {t('devices.sendTestData')}
        </button>
      </div>
      {port.error ? <ErrorBanner message={t('devices.serial.portError', { reason: port.error })} /> : null}
      {notice ? (
        <p className="muted small" role="status">
          {notice}
        </p>
      ) : null}
      {isConnected ? (
        <div className="device-item__live">
          <dl className="device-item__facts">
            <div>
              <dt>{t('devices.serial.samples')}</dt>
              <dd data-testid="serial-samples">{port.samples}</dd>
            </div>
            <div>
              <dt>{t('devices.serial.malformed')}</dt>
              <dd>{port.malformed}</dd>
            </div>
            <div>
              <dt>{t('devices.serial.rate')}</dt>
              <dd>
                {port.rateHz === null
                  ? t('devices.serial.rateUnknown')
                  : t('devices.serial.rateHz', { rate: port.rateHz })}
              </dd>
            </div>
            <div>
              <dt>{t('devices.serial.kind')}</dt>
              <dd>{port.kind ? port.kind.toUpperCase() : '—'}</dd>
            </div>
          </dl>
          <LiveWaveform points={waveform} label={t('devices.serial.liveWaveform', { path })} />
        </div>
      ) : null}
    </li>
  );
}
