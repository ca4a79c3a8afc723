import { useCallback, useEffect, useRef } from 'react';
import { encodeWav } from '../../../lib/wav';
import { useRecorderState } from './useRecorderState';

export { WAVEFORM_POINTS, type RecordingStatus } from './useRecorderState';

/** Spec §9: heart sounds are recorded for 15 s, then recording stops by itself. */
export const PCG_LIMIT_MS = 15_000;
/** Spec §9: the timer ticks every 10 ms. */
export const TICK_MS = 10;

/** One waveform point per captured block: its sample of largest magnitude (sign kept). */
export function peakOf(block: Float32Array): number {
  let peak = 0;
  for (const v of block) if (Math.abs(v) > Math.abs(peak)) peak = v;
  return peak;
}

/**
 * Records mono PCM from the microphone through an AudioWorklet (no browser processing: echo
 * cancellation, noise suppression and gain control are off, as a stethoscope signal needs), with the
 * spec's states (Ready → Recording... → Completed), duration, data points and live waveform. On stop,
 * or at `limitMs`, the recording is handed over as a WAV file.
 */
export function useAudioRecording(limitMs: number, onRecorded: (file: File) => void) {
  const state = useRecorderState(onRecorded);
  const { setStatus, setElapsedMs, setDataPoints, pushPoint, setError, reset, recorded } = state;
  const session = useRef<{
    stream: MediaStream;
    context: AudioContext;
    node: AudioWorkletNode;
    chunks: Float32Array[];
    startedAt: number;
    timer: number;
  } | null>(null);

  const stop = useCallback(() => {
    const current = session.current;
    if (!current) return;
    session.current = null;
    window.clearInterval(current.timer);
    current.node.port.onmessage = null;
    current.node.disconnect();
    for (const track of current.stream.getTracks()) track.stop();
    const sampleRate = current.context.sampleRate;
    void current.context.close();
    const total = current.chunks.reduce((n, c) => n + c.length, 0);
    if (total === 0) {
      setStatus('ready');
      return;
    }
    const samples = new Float32Array(total);
    let at = 0;
    for (const chunk of current.chunks) {
      samples.set(chunk, at);
      at += chunk.length;
    }
    setStatus('completed');
    recorded.current(new File([encodeWav(samples, sampleRate)], 'pcg-recording.wav', { type: 'audio/wav' }));
  }, [recorded, setStatus]);

  const start = useCallback(async () => {
    reset();
    try {
      const stream = await navigator.mediaDevices.getUserMedia({
        audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false, channelCount: 1 },
      });
      const context = new AudioContext();
      await context.audioWorklet.addModule('/pcm-capture-worklet.js');
      const source = context.createMediaStreamSource(stream);
      const node = new AudioWorkletNode(context, 'pcm-capture');
      const chunks: Float32Array[] = [];
      let points = 0;
      node.port.onmessage = (event: MessageEvent<Float32Array>) => {
        chunks.push(event.data);
        points += event.data.length;
        const peak = peakOf(event.data);
        setDataPoints(points);
        pushPoint(peak);
      };
      source.connect(node);
      const startedAt = performance.now();
      const timer = window.setInterval(() => {
        const elapsed = performance.now() - startedAt;
        setElapsedMs(Math.min(elapsed, limitMs));
        if (elapsed >= limitMs) stop();
      }, TICK_MS);
      session.current = { stream, context, node, chunks, startedAt, timer };
      setStatus('recording');
    } catch (cause) {
      setStatus('ready');
      setError(cause instanceof Error ? cause.message : String(cause));
    }
  }, [limitMs, stop, reset, setStatus, setElapsedMs, setDataPoints, pushPoint, setError]);

  // Release the microphone when the page goes away mid-recording.
  useEffect(
    () => () => {
      const current = session.current;
      if (!current) return;
      window.clearInterval(current.timer);
      for (const track of current.stream.getTracks()) track.stop();
      void current.context.close();
    },
    [],
  );

  const { status, elapsedMs, dataPoints, waveform, error } = state;
  return { status, elapsedMs, dataPoints, waveform, error, start, stop, retry: reset };
}
