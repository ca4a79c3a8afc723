import { useCallback, useEffect, useRef, useState } from 'react';
import { createPulseSampler, type PulseSampler } from './pulseFrames';
import { TICK_MS } from './useAudioRecording';
import { useRecorderState } from './useRecorderState';

/** Spec §9: the pulse is recorded for 12 s, then recording stops by itself. */
export const PPG_LIMIT_MS = 12_000;

type FrameCallbackVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (
    callback: (now: number, metadata: { mediaTime?: number; captureTime?: number }) => void,
  ) => number;
};

/**
 * Camera photoplethysmography with the fingertip over the lens (rear camera, torch where the browser
 * allows): every frame is sampled at its own timestamp by the shared pulse sampler (mean red,
 * inverted). On stop, or at `limitMs`, it is resampled to a uniform rate and handed over as a CSV
 * with a time column. When most frames show no fingertip over the lens (see `fingertipView`), nothing
 * is handed over and `noFingertip` is set: no pulse can be read from a scene or a test pattern.
 */
export function useCameraPpg(limitMs: number, onRecorded: (file: File) => void) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const state = useRecorderState(onRecorded);
  const { setStatus, setElapsedMs, setDataPoints, pushPoint, setError, reset: resetState, recorded } = state;
  const [noFingertip, setNoFingertip] = useState(false);
  const reset = useCallback(() => {
    setNoFingertip(false);
    resetState();
  }, [resetState]);
  const session = useRef<{
    stream: MediaStream;
    sampler: PulseSampler;
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
    const file = current.sampler.csvFile('ppg-camera.csv');
    if (!file) {
      setStatus('ready');
      setError('no frames were captured');
      return;
    }
    if (!current.sampler.fingertip) {
      setStatus('ready');
      setNoFingertip(true);
      return;
    }
    setStatus('completed');
    recorded.current(file);
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
      const current = { stream, sampler: createPulseSampler(), timer: 0, active: true };
      const startedAt = performance.now();
      let last = -Infinity;
      const onFrame = (now: number, metadata?: { mediaTime?: number; captureTime?: number }) => {
        if (!current.active) return;
        // A live frame is timed by when the camera captured it (or when it was presented), on the
        // page's clock: a stream's mediaTime need not increase (a camera playing a file loops it).
        const at = ((metadata?.captureTime ?? now) - startedAt) / 1000;
        if (at <= last) {
          schedule();
          return;
        }
        last = at;
        const point = current.sampler.add(video, at);
        setDataPoints(current.sampler.count);
        pushPoint(point);
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
  return { videoRef, status, elapsedMs, dataPoints, waveform, error, noFingertip, start, stop, retry: reset };
}
