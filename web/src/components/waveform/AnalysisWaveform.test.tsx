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

/** 75 s of heart sounds at 1 kHz (the API returns at most 60 s per call). */
function heartWindow(start: number, span: number): WaveformView {
  const end = Math.min(75, start + span);
  return {
    kind: 'pcg',
    sampling_rate_hz: 1000,
    source_rate_hz: 1000,
    duration_s: 75,
    start_s: start,
    end_s: end,
    channels: [
      { name: 'PCG', unit: '', samples: Array.from({ length: (end - start) * 1000 }, (_, i) => (i % 7) / 14) },
    ],
    analysed_channel: 0,
    beats_s: [],
    s1_s: [0.1, 0.9],
    s2_s: [0.4, 1.2],
    marks_note: null,
  };
}

function renderWith(load: LoadWaveformWindow, kind: 'ppg' | 'pcg' = 'ppg') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <AnalysisWaveform analysisId="a-7" kind={kind} load={load} />
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

  it('plays heart sounds back with a cursor that moves over the strip and turns the page', async () => {
    const load = vi.fn<LoadWaveformWindow>((_, start, span) => Promise.resolve(heartWindow(start, span)));
    const played: Blob[] = [];
    vi.stubGlobal('URL', {
      ...URL,
      createObjectURL: (blob: Blob) => {
        played.push(blob);
        return 'blob:heart';
      },
      revokeObjectURL: () => undefined,
    });
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    const pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
    const { container } = renderWith(load, 'pcg');
    expect(await screen.findByRole('img', { name: /PCG waveform/ })).toBeInTheDocument();
    // Heart sounds open on 4 s.
    expect(load).toHaveBeenLastCalledWith('a-7', 0, 4);
    expect(screen.queryByTestId('playback-cursor')).not.toBeInTheDocument();
    const audio = container.querySelector('audio') as HTMLAudioElement;
    let now = 1;
    Object.defineProperty(audio, 'currentTime', { get: () => now, configurable: true });

    await userEvent.click(screen.getByRole('button', { name: 'Play' }));
    await screen.findByRole('button', { name: 'Pause' });
    // The whole recording, a minute at a time, as a WAV upsampled to a rate browsers play.
    expect(load).toHaveBeenCalledWith('a-7', 0, 60);
    expect(load).toHaveBeenCalledWith('a-7', 60, 60);
    expect(play).toHaveBeenCalled();
    const wav = new DataView(await (played[0] as Blob).arrayBuffer());
    expect(wav.getUint32(24, true)).toBe(8000);
    expect(wav.getUint32(40, true)).toBe(75 * 8000 * 2);
    const cursor = await screen.findByTestId('playback-cursor');
    expect(cursor.style.left).toBe('25%');

    // Past the window, the strip follows to the page that holds the cursor.
    now = 5;
    await vi.waitFor(() => expect(load).toHaveBeenCalledWith('a-7', 5, 4));
    await vi.waitFor(() => expect(screen.getByTestId('playback-cursor').style.left).toBe('0%'));
    await userEvent.click(screen.getByRole('button', { name: 'Pause' }));
    expect(screen.getByRole('button', { name: 'Play' })).toBeInTheDocument();
    vi.unstubAllGlobals();
    play.mockRestore();
    pause.mockRestore();
  });

  it('shades the murmur heard in a heart-sound recording in each systole, and says so', async () => {
    const load = vi.fn<LoadWaveformWindow>((_, start, span) => Promise.resolve(heartWindow(start, span)));
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <AnalysisWaveform analysisId="a-7" kind="pcg" load={load} murmurTiming="holosystolic" />
      </QueryClientProvider>,
    );
    const strip = await screen.findByRole('img', {
      name: /PCG waveform.*the murmur \(holosystolic\) shaded in each systole/,
    });
    // Two systoles: S1 0.1 -> S2 0.4 and S1 0.9 -> S2 1.2.
    expect(strip).toHaveAttribute('data-murmur-spans', '2');
  });

  it('shades nothing where no murmur was heard', async () => {
    const load = vi.fn<LoadWaveformWindow>((_, start, span) => Promise.resolve(heartWindow(start, span)));
    renderWith(load, 'pcg');
    const strip = await screen.findByRole('img', { name: /PCG waveform/ });
    expect(strip).toHaveAttribute('data-murmur-spans', '0');
    expect(strip.getAttribute('aria-label')).not.toMatch(/murmur/);
  });
});
