import { useCallback, useEffect, useRef, useState } from 'react';

/** Spec §9: the live waveform shows the last 200 points. */
export const WAVEFORM_POINTS = 200;

export type RecordingStatus = 'ready' | 'recording' | 'completed';

/**
 * The state both recorders (microphone, camera) show: the spec's status, elapsed time, data points,
 * the last 200 waveform points and the last error, plus the caller's latest "recorded" callback.
 */
export function useRecorderState(onRecorded: (file: File) => void) {
  const [status, setStatus] = useState<RecordingStatus>('ready');
  const [elapsedMs, setElapsedMs] = useState(0);
  const [dataPoints, setDataPoints] = useState(0);
  const [waveform, setWaveform] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);
  const recorded = useRef(onRecorded);
  useEffect(() => {
    recorded.current = onRecorded;
  }, [onRecorded]);

  /** Back to Ready with no data (Start clears too; Retry is this). */
  const reset = useCallback(() => {
    setStatus('ready');
    setElapsedMs(0);
    setDataPoints(0);
    setWaveform([]);
    setError(null);
  }, []);

  /** Adds one waveform point, keeping the last [`WAVEFORM_POINTS`]. */
  const pushPoint = useCallback((value: number) => {
    setWaveform((last) => [...last.slice(-(WAVEFORM_POINTS - 1)), value]);
  }, []);

  return {
    status,
    setStatus,
    elapsedMs,
    setElapsedMs,
    dataPoints,
    setDataPoints,
    waveform,
    pushPoint,
    error,
    setError,
    reset,
    recorded,
  };
}
