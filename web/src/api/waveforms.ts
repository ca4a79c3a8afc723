/**
 * The waveform API: one window of a stored analysis's recording, with the beats found in the whole
 * recording. Pages hand it to the waveform viewer, which asks for the windows its zoom and scroll
 * need (the viewer itself knows no endpoint).
 */
import { api, unwrap, type WaveformView } from './client';

/** Loads `span` seconds of analysis `id`'s recording from `start` seconds. */
export type LoadWaveformWindow = (id: string, start: number, span: number) => Promise<WaveformView>;

export const fetchWaveformWindow: LoadWaveformWindow = (id, start, span) =>
  unwrap(
    api.GET('/api/analyses/{id}/waveform', {
      params: { path: { id }, query: { start_s: start, duration_s: span } },
    }),
  );
