import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, type WaveformView } from '../../api/client';
import type { LoadWaveformWindow } from '../../api/waveforms';
import { AnalysisWaveform } from './AnalysisWaveform';

function pulseWindow(start: number, span: number): WaveformView {
  const end = Math.min(30, start + span);
  return {
    kind: 'ppg',
    sampling_rate_hz: 50,
    source_rate_hz: 125,
    duration_s: 30,
    start_s: start,
    end_s: end,
    channels: [
      { name: 'PLETH', unit: '', samples: Array.from({ length: (end - start) * 50 }, (_, i) => Math.sin(i / 8)) },
    ],
    analysed_channel: 0,
    beats_s: [1, 2, 3],
    s1_s: [],
    s2_s: [],
    marks_note: null,
  };
}

function renderWith(load: LoadWaveformWindow) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <AnalysisWaveform analysisId="a-7" kind="ppg" load={load} />
    </QueryClientProvider>,
  );
}

describe('AnalysisWaveform', () => {
  it('asks the loader the page gives it for the window its zoom and scroll need', async () => {
    const load = vi.fn<LoadWaveformWindow>((_, start, span) => Promise.resolve(pulseWindow(start, span)));
    renderWith(load);
    // A pulse strip opens on 10 s from the start.
    expect(await screen.findByRole('img', { name: /PPG waveform/ })).toBeInTheDocument();
    expect(load).toHaveBeenCalledWith('a-7', 0, 10);
    await userEvent.click(screen.getByRole('button', { name: 'Zoom out' }));
    // One zoom level out is 20 s of pulse.
    await vi.waitFor(() => expect(load).toHaveBeenLastCalledWith('a-7', 0, 20));
  });

  it("shows the loader's error with a retry that asks again", async () => {
    const load = vi.fn<LoadWaveformWindow>(() =>
      Promise.reject(new ApiError(404, 'This analysis has no recording to show.')),
    );
    renderWith(load);
    expect(await screen.findByRole('alert')).toHaveTextContent('This analysis has no recording to show.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(2));
  });
});
