import { useCallback, useEffect, useRef } from 'react';
import { resampleUniform, signalCsv } from '../../../lib/resample';
import { TICK_MS } from './useAudioRecording';
import { useRecorderState } from './useRecorderState';

/** Spec §9: the pulse is recorded for 12 s, then recording stops by itself. */
export const PPG_LIMIT_MS = 12_000;
/** The uniform rate the camera signal is resampled to before upload (a phone camera gives ~30 frames/s). */
export const CAMERA_PPG_RATE_HZ = 30;
/** Frames are reduced to this many pixels before the mean is taken. */
const SAMPLE_WIDTH = 32;
const SAMPLE_HEIGHT = 24;

/** Mean of the red channel of RGBA pixels. */
export function meanRed(pixels: Uint8ClampedArray): number {
  let sum = 0;
  let count = 0;
  for (let i = 0; i < pixels.length; i += 4) {
    sum += pixels[i] ?? 0;
    count += 1;
  }
  return count === 0 ? 0 : sum / count;
}

type FrameCallbackVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (callback: (now: number, metadata: { mediaTime?: number }) => void) => number;
};

/**
 * Camera photoplethysmography with the fingertip over the lens (rear camera, torch where the browser
 * allows; Verkruysse et al., Opt Express 2008): the mean red intensity of every frame at its own
 * timestamp is the pulse signal, inverted (more blood in the fingertip lets less light through).
 * On stop, or at `limitMs`, it is resampled to a uniform rate and handed over as a CSV with a time
 * column.
 */
export function useCameraPpg(limitMs: number, onRecorded: (file: File) => void) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const state = useRecorderState(onRecorded);
  const { setStatus, setElapsedMs, setDataPoints, pushPoint, setError, reset, recorded } = state;
  const session = useRef<{
    stream: MediaStream;
    times: number[];
    values: number[];
    timer: number;
    active: boolean;
  } | null>(null);

  const stop = useCallback(() => {
    const current = session.current;
    if (!current) return;
    session.current = null;
    current.active = false;
    window.clearInterval(current.timer);
    for (const track of current.stream.getTracks()) track.stop();
    if (videoRef.current) videoRef.current.srcObject = null;
    const uniform = resampleUniform(current.times, current.values, CAMERA_PPG_RATE_HZ);
    if (uniform.length < 2) {
      setStatus('ready');
      setError('no frames were captured');
      return;
    }
    setStatus('completed');
    const csv = signalCsv(uniform, CAMERA_PPG_RATE_HZ, 'PPG');
    recorded.current(new File([csv], 'ppg-camera.csv', { type: 'text/csv' }));
  }, [recorded, setError, setStatus]);

  const start = useCallback(async () => {
    reset();
    const video = videoRef.current as FrameCallbackVideo | null;
    if (!video) return;
    try {
      const stream = await navigator.mediaDevices.getUserMedia({
        audio: false,
        video: { facingMode: 'environment', width: { ideal: 320 }, height: { ideal: 240 }, frameRate: { ideal: 30 } },
      });
      const [track] = stream.getVideoTracks();
      // The torch lights the fingertip where the browser and device allow it; elsewhere it is skipped.
      await track?.applyConstraints({ advanced: [{ torch: true } as MediaTrackConstraintSet] }).catch(() => undefined);
      video.srcObject = stream;
      video.muted = true;
      await video.play();
      const canvas = document.createElement('canvas');
      canvas.width = SAMPLE_WIDTH;
      canvas.height = SAMPLE_HEIGHT;
      const context = canvas.getContext('2d', { willReadFrequently: true });
      if (!context) throw new Error('no 2D canvas');
      const current = { stream, times: [] as number[], values: [] as number[], timer: 0, active: true };
      const startedAt = performance.now();
      const onFrame = (now: number, metadata?: { mediaTime?: number }) => {
        if (!current.active) return;
        context.drawImage(video, 0, 0, SAMPLE_WIDTH, SAMPLE_HEIGHT);
        const value = -meanRed(context.getImageData(0, 0, SAMPLE_WIDTH, SAMPLE_HEIGHT).data);
        current.times.push(metadata?.mediaTime ?? (now - startedAt) / 1000);
        current.values.push(value);
        setDataPoints(current.values.length);
        pushPoint(value - (current.values[0] ?? 0));
        schedule();
      };
      const schedule = () => {
        if (!current.active) return;
        if (video.requestVideoFrameCallback) video.requestVideoFrameCallback(onFrame);
        else requestAnimationFrame((now) => onFrame(now));
      };
      current.timer = window.setInterval(() => {
        const elapsed = performance.now() - startedAt;
        setElapsedMs(Math.min(elapsed, limitMs));
        if (elapsed >= limitMs) stop();
      }, TICK_MS);
      session.current = current;
      setStatus('recording');
      schedule();
    } catch (cause) {
      setStatus('ready');
      setError(cause instanceof Error ? cause.message : String(cause));
    }
  }, [limitMs, stop, reset, setStatus, setElapsedMs, setDataPoints, pushPoint, setError]);

  useEffect(
    () => () => {
      const current = session.current;
      if (!current) return;
      current.active = false;
      window.clearInterval(current.timer);
      for (const track of current.stream.getTracks()) track.stop();
    },
    [],
  );

  const { status, elapsedMs, dataPoints, waveform, error } = state;
  return { videoRef, status, elapsedMs, dataPoints, waveform, error, start, stop, retry: reset };
}
