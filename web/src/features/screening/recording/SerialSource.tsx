import { Usb } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../../app/paths';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { LiveWaveform } from '../../../components/waveform/LiveWaveform';
import { useSerialManager, useSerialPorts } from '../../../lib/serial/SerialProvider';
import { useSerialRecording } from './useSerialRecording';
import './deviceSources.css';

/** Rates offered when the device declares none: common ADC rates of sensor sketches. */
const DEFAULT_RATES: Record<'ecg' | 'pcg' | 'ppg', number> = { ecg: 250, pcg: 4000, ppg: 100 };

/**
 * A connected USB serial sensor as the source of a recording step (issue 10): pick the port, Start
 * records what it streams (live waveform), Stop or the time limit sends the file through the step's
 * usual upload, so that it is stored with the screening and analysed by the same model.
 */
export function SerialSource({
  kind,
  limitMs,
  disabled,
  onRecorded,
}: {
  kind: 'ecg' | 'pcg' | 'ppg';
  limitMs: number;
  disabled: boolean;
  onRecorded: (file: File) => void;
}) {
  const { t } = useTranslation();
  const manager = useSerialManager();
  const ports = useSerialPorts(manager).filter((p) => p.state === 'connected');
  const [chosen, setChosen] = useState<string | null>(null);
  const [rate, setRate] = useState(DEFAULT_RATES[kind]);
  const recorder = useSerialRecording(manager, kind, limitMs, onRecorded);
  const port = ports.find((p) => p.id === chosen) ?? ports[0] ?? null;
  const ids = { port: useId(), rate: useId() };
  const recording = recorder.status === 'recording';

  if (!manager.supported) return null;
  return (
    <section className="recorder serial-source" aria-labelledby={`${ids.port}-title`}>
      <h3 id={`${ids.port}-title`} className="section__title">
        <Usb aria-hidden="true" size={18} /> {t('devices.record.title')}
      </h3>
      {!port ? (
        <p className="muted">
          {t('devices.record.noSerial')} <Link to={paths.devices}>{t('devices.record.openDevices')}</Link>
        </p>
      ) : (
        <>
          <p className="muted">{t('devices.record.serialHint')}</p>
          <div className="recorder__controls">
            {ports.length > 1 ? (
              <div className="field field--compact">
                <label htmlFor={ids.port} className="field__label">
                  {t('devices.record.port')}
                </label>
                <select
                  id={ids.port}
                  className="select"
                  value={port.id}
                  disabled={recording}
                  onChange={(event) => setChosen(event.target.value)}
                >
                  {ports.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.label}
                    </option>
                  ))}
                </select>
              </div>
            ) : null}
            {port.rateHz === null ? (
              <div className="field field--compact">
                <label htmlFor={ids.rate} className="field__label">
                  {t('devices.record.rateLabel')}
                </label>
                <input
                  id={ids.rate}
                  className="input"
                  type="number"
                  min={1}
                  max={100000}
                  value={rate}
                  disabled={recording}
                  aria-describedby={`${ids.rate}-help`}
                  onChange={(event) => setRate(Number(event.target.value) || DEFAULT_RATES[kind])}
                />
                <p id={`${ids.rate}-help`} className="field__help">
                  {t('devices.record.rateNeeded')}
                </p>
              </div>
            ) : (
              <p className="muted small">{t('devices.record.rateFromDevice', { rate: port.rateHz })}</p>
            )}
          </div>
          <div className="recorder__controls">
            <button
              type="button"
              className="button button--primary"
              disabled={disabled || recording}
              onClick={() => recorder.start(port.id, rate)}
            >
              {t('devices.record.start')}
            </button>
            <button type="button" className="button button--secondary" disabled={!recording} onClick={recorder.stop}>
              {t('devices.record.stop')}
            </button>
          </div>
          <p className="muted small" role="status">
            {recording
              ? t('devices.record.recording', {
                  port: port.label,
                  seconds: (recorder.elapsedMs / 1000).toFixed(1),
                  samples: recorder.dataPoints,
                })
              : recorder.status === 'completed'
                ? t('devices.record.recorded', {
                    port: port.label,
                    seconds: (recorder.elapsedMs / 1000).toFixed(1),
                    samples: recorder.dataPoints,
                  })
                : null}
          </p>
          {recording ? (
            <LiveWaveform points={recorder.waveform} label={t('devices.serial.liveWaveform', { path: port.label })} />
          ) : null}
          <ErrorBanner message={recorder.error === 'tooShort' ? t('devices.record.tooShort') : null} />
        </>
      )}
    </section>
  );
}
