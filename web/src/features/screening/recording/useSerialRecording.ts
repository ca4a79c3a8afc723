import { useCallback, useEffect, useRef, useState } from 'react';
import { estimateRateHz, type Sample } from '../../../lib/serial/lineProtocol';
import type { SerialManager } from '../../../lib/serial/serialPorts';
import { signalCsv } from '../../../lib/resample';
import { encodeWav } from '../../../lib/wav';
import { WAVEFORM_POINTS, type RecordingStatus } from './useRecorderState';

/** The ECG step records this long from a serial front end, then stops by itself. */
export const ECG_SERIAL_LIMIT_MS = 30_000;
/** Fewer seconds than this are not worth sending. */
export const MIN_SERIAL_SECONDS = 2;
const TICK_MS = 100;

type Kind = 'ecg' | 'pcg' | 'ppg';

/** The recorded samples as the file the upload endpoints read: CSV with a time column, WAV for PCG. */
export function serialRecordingFile(kind: Kind, values: number[], rateHz: number): File {
  if (kind === 'pcg') {
    const peak = Math.max(1e-12, ...values.map((v) => Math.abs(v)));
    const mean = values.reduce((s, v) => s + v, 0) / Math.max(1, values.length);
    const scale = Math.max(1e-12, peak - mean, mean - Math.min(...values));
    const pcm = Float32Array.from(values, (v) => (v - mean) / scale);
    return new File([encodeWav(pcm, rateHz)], 'pcg-serial.wav', { type: 'audio/wav' });
  }
  const column = kind === 'ecg' ? 'ECG' : 'PPG';
  return new File([signalCsv(values, rateHz, column)], `${kind}-serial.csv`, { type: 'text/csv' });
}

/**
 * Records from a connected serial port (the app's [`SerialManager`]): Start collects what the port
 * streams, Stop or `limitMs` turns it into a file at the device's declared rate (its `# rate=`
 * header), else the rate of its timestamps, else `fallbackRateHz`, and hands it over.
 */
export function useSerialRecording(
  manager: SerialManager,
  kind: Kind,
  limitMs: number,
  onRecorded: (file: File) => void,
) {
  const [status, setStatus] = useState<RecordingStatus>('ready');
  const [elapsedMs, setElapsedMs] = useState(0);
  const [dataPoints, setDataPoints] = useState(0);
  const [waveform, setWaveform] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);
  const recorded = useRef(onRecorded);
  useEffect(() => {
    recorded.current = onRecorded;
  }, [onRecorded]);
  const session = useRef<{
    portId: string;
    samples: Sample[];
    headerRate: number | null;
    fallbackRate: number;
    timer: number;
    unsubscribe: () => void;
  } | null>(null);

  const stop = useCallback(() => {
    const current = session.current;
    if (!current) return;
    session.current = null;
    window.clearInterval(current.timer);
    current.unsubscribe();
    const headerRate = manager.ports().find((p) => p.id === current.portId)?.rateHz ?? current.headerRate;
    const rate = estimateRateHz(current.samples, headerRate) ?? current.fallbackRate;
    const values = current.samples.map((s) => s.value);
    if (values.length < rate * MIN_SERIAL_SECONDS) {
      setStatus('ready');
      setError('tooShort');
      return;
    }
    setStatus('completed');
    recorded.current(serialRecordingFile(kind, values, rate));
  }, [kind, manager]);

  const start = useCallback(
    (portId: string, fallbackRate: number) => {
      if (session.current) return;
      setError(null);
      setElapsedMs(0);
      setDataPoints(0);
      setWaveform([]);
      const samples: Sample[] = [];
      const unsubscribe = manager.onSamples((from, batch) => {
        if (from === portId) samples.push(...batch);
      });
      const startedAt = performance.now();
      const current = {
        portId,
        samples,
        headerRate: manager.ports().find((p) => p.id === portId)?.rateHz ?? null,
        fallbackRate,
        timer: 0,
        unsubscribe,
      };
      current.timer = window.setInterval(() => {
        const elapsed = performance.now() - startedAt;
        setElapsedMs(Math.min(elapsed, limitMs));
        setDataPoints(samples.length);
        // The last 3 seconds (at least the spec's 200 points): a beat or two of ECG, not a fifth of one.
        const shown = Math.max(WAVEFORM_POINTS, Math.round(3 * (current.headerRate ?? fallbackRate)));
        const last = samples.slice(-shown).map((s) => s.value);
        const mean = last.reduce((s, v) => s + v, 0) / Math.max(1, last.length);
        setWaveform(last.map((v) => v - mean));
        if (elapsed >= limitMs) stop();
        // The device went away mid-recording: keep what arrived.
        if (!manager.ports().some((p) => p.id === portId && p.state === 'connected')) stop();
      }, TICK_MS);
      session.current = current;
      setStatus('recording');
    },
    [limitMs, manager, stop],
  );

  const retry = useCallback(() => {
    if (session.current) return;
    setStatus('ready');
    setElapsedMs(0);
    setDataPoints(0);
    setWaveform([]);
    setError(null);
  }, []);

  useEffect(
    () => () => {
      const current = session.current;
      if (!current) return;
      window.clearInterval(current.timer);
      current.unsubscribe();
      session.current = null;
    },
    [],
  );

  return { status, elapsedMs, dataPoints, waveform, error, start, stop, retry };
}
