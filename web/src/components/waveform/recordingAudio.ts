/**
 * A stored heart-sound recording as playable audio, built from the waveform API's windows (the
 * analysed channel at the rate the API returns, at most 2 kHz: heart sounds and murmurs lie below
 * 1 kHz): read a minute at a time, normalised to its peak, encoded as WAV and upsampled to a rate
 * browsers play ({@link playableAudio}).
 */
import type { LoadWaveformWindow } from '../../api/waveforms';
import { encodeWav, playableAudio } from '../../lib/wav';

/** Seconds per call (the API's longest window). */
const WINDOW_S = 60;
/** Longest recording played back, seconds (a heart-sound recording is well under it). */
export const MAX_PLAYBACK_S = 600;

/** The analysed channel of the whole recording (up to {@link MAX_PLAYBACK_S}) as samples and rate. */
export async function recordingSamples(
  load: LoadWaveformWindow,
  analysisId: string,
): Promise<{ samples: Float32Array; rate: number }> {
  const parts: (number | null)[][] = [];
  let rate = 0;
  let start = 0;
  for (;;) {
    const window = await load(analysisId, start, WINDOW_S);
    rate = window.sampling_rate_hz;
    parts.push(window.channels[window.analysed_channel]?.samples ?? []);
    const end = Math.min(window.duration_s, MAX_PLAYBACK_S);
    if (window.end_s >= end - 1 / rate || window.end_s <= start) break;
    start = window.end_s;
  }
  const length = parts.reduce((n, part) => n + part.length, 0);
  const samples = new Float32Array(length);
  let at = 0;
  for (const part of parts) {
    for (const value of part) samples[at++] = value ?? 0;
  }
  let peak = 0;
  for (const value of samples) peak = Math.max(peak, Math.abs(value));
  if (peak > 0) for (let i = 0; i < samples.length; i += 1) samples[i] = (samples[i] ?? 0) / peak;
  return { samples, rate };
}

/** The recording as an audio file the browser plays. */
export async function recordingAudio(load: LoadWaveformWindow, analysisId: string): Promise<Blob> {
  const { samples, rate } = await recordingSamples(load, analysisId);
  return playableAudio(encodeWav(samples, Math.round(rate)));
}
