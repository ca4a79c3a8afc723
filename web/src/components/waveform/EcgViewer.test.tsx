import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { WaveformView } from '../../api/client';
import type { LoadWaveformWindow } from '../../api/waveforms';
import { SCREEN_PX_PER_MM_KEY } from '../../lib/screenCalibration';
import { leadsWindow } from '../../test/fixtures';
import { AnalysisWaveform } from './AnalysisWaveform';

const LEADS = ['I', 'II', 'III', 'aVR', 'aVL', 'aVF', 'V1', 'V2', 'V3', 'V4', 'V5', 'V6'];

/** 30 s of a 12-lead ECG at 100 Hz, or one lead only. */
function ecgWindow(start: number, span: number, leads = LEADS): WaveformView {
  return leadsWindow(start, span, leads);
}

function renderEcg(leads = LEADS, calibrateHref?: string) {
  const load = vi.fn<LoadWaveformWindow>((_, start, span) => Promise.resolve(ecgWindow(start, span, leads)));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AnalysisWaveform analysisId="a-12" kind="ecg" load={load} calibrateHref={calibrateHref} />
    </QueryClientProvider>,
  );
  return load;
}

const paper = () => screen.findByRole('img', { name: /^ECG waveform/ });
const readout = () => screen.getByTestId('caliper-readout');

describe('ECG paper', () => {
  it('offers 3 x 4, 6 x 2, 12 x 1 and every lead for a 12-lead record', async () => {
    renderEcg();
    expect(await paper()).toHaveAttribute('data-rows', '4');
    const layouts = screen.getByRole('group', { name: 'Lead layout' });
    expect([...layouts.querySelectorAll('button')].map((b) => b.textContent)).toEqual([
      '12-lead',
      '6×2',
      '12×1',
      'All leads',
    ]);
    expect(screen.getByRole('button', { name: '12-lead' })).toHaveAttribute('aria-pressed', 'true');

    await userEvent.click(screen.getByTestId('ecg-layout-twelveByOne'));
    expect(screen.getByTestId('ecg-layout-twelveByOne')).toHaveAttribute('aria-pressed', 'true');
    expect(await paper()).toHaveAttribute('data-rows', '12');
    expect(await paper()).toHaveAttribute('data-labels', LEADS.join('|'));

    await userEvent.click(screen.getByRole('button', { name: '6×2' }));
    expect(await paper()).toHaveAttribute('data-labels', 'I,V1|II,V2|III,V3|aVR,V4|aVL,V5|aVF,V6');
  });

  it('offers no layout for a record without the standard leads', async () => {
    renderEcg(['MLII']);
    expect(await paper()).toHaveAttribute('data-rows', '1');
    expect(screen.queryByRole('group', { name: 'Lead layout' })).not.toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Paper speed' })).toBeInTheDocument();
  });

  it('runs at 25 mm/s and 10 mm/mV until the doctor picks 50 mm/s or another gain', async () => {
    const load = renderEcg();
    const canvas = await paper();
    // 3 px/mm: 10 mm margin + 10 s x 25 mm/s; 4 rows of 3 mV x 10 mm/mV.
    expect(canvas).toHaveAttribute('width', '780');
    expect(canvas).toHaveAttribute('height', '360');
    expect(screen.getByRole('button', { name: '25 mm/s' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: '10 mm/mV' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText(/25 mm\/s, 10 mm\/mV, 1 mV calibration pulse/)).toBeInTheDocument();

    await userEvent.click(screen.getByTestId('ecg-speed-50'));
    await userEvent.click(screen.getByTestId('ecg-gain-20'));
    // The same 10 s page, on paper twice as long (15 mm margin + 500 mm) with rows twice as tall.
    expect(canvas).toHaveAttribute('width', '1545');
    expect(canvas).toHaveAttribute('height', '720');
    expect(screen.getByTestId('ecg-gain-20')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('ecg-gain-10')).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByText(/50 mm\/s, 20 mm\/mV/)).toBeInTheDocument();
    expect(load).toHaveBeenLastCalledWith('a-12', 0, 10);
  });

  it('needs a screen calibration for true size, then draws 1 mm as the calibrated pixels', async () => {
    renderEcg(LEADS, '/settings#screen');
    await paper();
    expect(screen.getByTestId('ecg-true-size')).toBeDisabled();
    expect(screen.getByText(/True size needs this screen to be calibrated once/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Calibrate in Settings' })).toHaveAttribute('href', '/settings#screen');
  });

  it('shows the paper true size once the screen is calibrated', async () => {
    window.localStorage.setItem(SCREEN_PX_PER_MM_KEY, '4');
    renderEcg();
    const canvas = await paper();
    await userEvent.click(screen.getByTestId('ecg-true-size'));
    expect(screen.getByTestId('ecg-true-size')).toHaveAttribute('aria-pressed', 'true');
    // 4 px/mm: (10 + 250) mm = 1040 px.
    expect(canvas).toHaveAttribute('width', '1040');
    // Zooming leaves true size.
    await userEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(screen.getByTestId('ecg-true-size')).toHaveAttribute('aria-pressed', 'false');
    expect(canvas).toHaveAttribute('width', '1040');
  });
});

describe('calipers', () => {
  it('are laid, moved and removed from the keyboard, and read in ms, bpm and mV', async () => {
    renderEcg();
    await paper();
    expect(screen.queryByTestId('caliper-readout')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('ecg-calipers'));
    expect(screen.getByTestId('ecg-calipers')).toHaveAttribute('aria-pressed', 'true');
    expect(readout()).toHaveAttribute('role', 'status');
    expect(readout()).toHaveTextContent('Drag on the paper, or press Enter on it, to lay a caliper.');

    const viewport = document.querySelector<HTMLElement>('.waveform__viewport');
    viewport?.focus();
    await userEvent.keyboard('{Enter}');
    expect(readout()).toHaveTextContent('1000 ms · 60 bpm · 0.00 mV');
    await userEvent.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}');
    expect(readout()).toHaveTextContent('1016 ms · 59 bpm · 0.00 mV');
    await userEvent.keyboard('{Shift>}{ArrowLeft}{/Shift}');
    expect(readout()).toHaveTextContent('976 ms · 61 bpm');
    // The other end: moving it left widens the interval; Up raises its level.
    await userEvent.keyboard('e{ArrowLeft}{ArrowUp}{ArrowUp}');
    expect(readout()).toHaveTextContent('980 ms · 61 bpm · 0.10 mV');
    // The arrows moved the caliper, not the page.
    expect(await paper()).toHaveAccessibleName('ECG waveform, 0:00.0 – 0:10.0 of 0:30.0');

    // Held in time, the caliper reads the same after a change of layout, speed and gain.
    await userEvent.click(screen.getByTestId('ecg-layout-twelveByOne'));
    await userEvent.click(screen.getByTestId('ecg-speed-50'));
    await userEvent.click(screen.getByTestId('ecg-gain-5'));
    expect(readout()).toHaveTextContent('980 ms · 61 bpm · 0.10 mV');
    // Laid on the middle row of 3 x 4 (V2's), it stays on row 1 of 12 x 1.
    expect(screen.getByTestId('caliper')).toHaveAttribute('data-row', '1');

    viewport?.focus();
    await userEvent.keyboard('{Escape}');
    expect(readout()).toHaveTextContent('Drag on the paper');
    expect(screen.queryByTestId('caliper')).not.toBeInTheDocument();
    // With no caliper the arrows scroll again.
    await userEvent.keyboard('{ArrowRight}');
    expect(await paper()).toHaveAccessibleName('ECG waveform, 0:05.0 – 0:15.0 of 0:30.0');
  });

  it('stay on the paper when a layout has fewer rows than the one they were laid on', async () => {
    renderEcg();
    await paper();
    await userEvent.click(screen.getByTestId('ecg-layout-twelveByOne'));
    await userEvent.click(screen.getByTestId('ecg-calipers'));
    document.querySelector<HTMLElement>('.waveform__viewport')?.focus();
    await userEvent.keyboard('{Enter}');
    // The middle of twelve rows: row 5 (aVF).
    expect(screen.getByTestId('caliper')).toHaveAttribute('data-row', '5');
    await userEvent.click(screen.getByTestId('ecg-layout-twelve'));
    expect(screen.getByTestId('caliper')).toHaveAttribute('data-row', '3');
    expect(readout()).toHaveTextContent('1000 ms · 60 bpm · 0.00 mV');
  });

  it('are laid by dragging on the paper and march the interval out', async () => {
    renderEcg();
    await paper();
    await userEvent.click(screen.getByTestId('ecg-calipers'));
    const layer = screen.getByTestId('caliper-layer');
    // 3 px/mm: the trace starts at 30 px, 75 px per second; row 0's baseline is 54 px, 30 px per mV.
    fireEvent.pointerDown(layer, { clientX: 105, clientY: 54, pointerId: 1, button: 0 });
    fireEvent.pointerMove(layer, { clientX: 118.2, clientY: 24, pointerId: 1 });
    fireEvent.pointerUp(layer, { clientX: 118.2, clientY: 24, pointerId: 1 });
    expect(readout()).toHaveTextContent('176 ms · 341 bpm · 1.00 mV');

    // Dragging near an end moves that end: 1 s to 1.8 s is 800 ms, 75 bpm.
    fireEvent.pointerDown(layer, { clientX: 120, clientY: 40, pointerId: 2, button: 0 });
    fireEvent.pointerMove(layer, { clientX: 165, clientY: 54, pointerId: 2 });
    fireEvent.pointerUp(layer, { clientX: 165, clientY: 54, pointerId: 2 });
    expect(readout()).toHaveTextContent('800 ms · 75 bpm · 0.00 mV');

    await userEvent.click(screen.getByTestId('ecg-march-out'));
    // From 1 s every 0.8 s across the 10 s page, but the two ends: 0.2, 2.6, 3.4 ... 9.8.
    expect(layer).toHaveAttribute('data-march-ticks', '11');
    // Turning calipers off removes the caliper.
    await userEvent.click(screen.getByTestId('ecg-calipers'));
    expect(screen.queryByTestId('caliper-readout')).not.toBeInTheDocument();
    expect(screen.queryByTestId('caliper')).not.toBeInTheDocument();
  });
});
