import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { WaveformView } from '../../api/client';
import type { LoadWaveformWindow } from '../../api/waveforms';
import { leadsWindow } from '../../test/fixtures';
import { AnalysisWaveform } from './AnalysisWaveform';
import type { Ecg12Marks } from './fiducials';

const LEADS = ['I', 'II', 'III', 'aVR', 'aVL', 'aVF', 'V1', 'V2', 'V3', 'V4', 'V5', 'V6'];
/** R peaks every 0.8 s from 0.4 s over 30 s. */
const R = Array.from({ length: 37 }, (_, k) => Math.round((0.4 + 0.8 * k) * 1000) / 1000);
const ms = (t: number) => Math.round(t * 1000) / 1000;

/** The server's reading of the record: beats inside the window, median beats at 100 Hz. */
function marks(start: number, end: number): Ecg12Marks {
  const inside = R.filter((r) => r + 0.4 >= start && r - 0.2 <= end);
  return {
    global_beats: inside.map((r) => ({
      r_s: r,
      p_on: ms(r - 0.2),
      qrs_on: ms(r - 0.04),
      qrs_off: ms(r + 0.05),
      t_off: ms(r + 0.4),
    })),
    lead_marks: LEADS.map((name) => ({
      name,
      beats: inside.map((r) => ({
        p_on: ms(r - 0.18),
        p_peak: ms(r - 0.13),
        p_off: ms(r - 0.08),
        qrs_on: ms(r - 0.03),
        r_peak: r,
        qrs_off: ms(r + 0.04),
        t_on: ms(r + 0.2),
        t_peak: ms(r + 0.3),
        t_off: ms(r + 0.38),
      })),
    })),
    median: {
      sampling_rate_hz: 100,
      leads: LEADS.map((name) => ({ name, samples: Array.from({ length: 80 }, (_, i) => (i === 32 ? 1 : 0)) })),
      p_on_s: 0.12,
      qrs_on_s: 0.28,
      qrs_off_s: 0.37,
      t_off_s: 0.72,
    },
  };
}

function ecgWindow(start: number, span: number, reading: boolean): WaveformView {
  return leadsWindow(start, span, LEADS, {
    beats_s: R,
    ecg12: reading ? marks(start, Math.min(30, start + span)) : null,
  });
}

function renderEcg(reading = true) {
  const load = vi.fn<LoadWaveformWindow>((_, start, span) => Promise.resolve(ecgWindow(start, span, reading)));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AnalysisWaveform analysisId="a-12" kind="ecg" load={load} />
    </QueryClientProvider>,
  );
}

const paper = () => screen.findByRole('img', { name: /^ECG waveform/ });
const lines = (kind: string) =>
  screen.getAllByTestId('fiducial-line').filter((line) => line.getAttribute('data-kind') === kind);

describe('the 12-lead marks on the ECG paper', () => {
  it('are offered only for a record the server read as a 12-lead ECG', async () => {
    renderEcg(false);
    await paper();
    expect(screen.queryByTestId('ecg-fiducials')).not.toBeInTheDocument();
    expect(screen.queryByTestId('ecg-lead-marks')).not.toBeInTheDocument();
    expect(screen.queryByTestId('ecg-median')).not.toBeInTheDocument();
  });

  it('draw the global fiducials across every row where they fall at 25 and 50 mm/s, with a legend', async () => {
    renderEcg();
    await paper();
    expect(screen.getByTestId('ecg-fiducials')).toHaveAttribute('aria-pressed', 'false');
    expect(screen.queryByTestId('fiducial-line')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('ecg-fiducials'));
    expect(screen.getByTestId('ecg-fiducials')).toHaveAttribute('aria-pressed', 'true');
    // 3 px/mm, 25 mm/s: the trace starts at 30 px, 75 px per second. The beat at 1.2 s: P onset
    // 1.0 s at 105 px, QRS onset 1.16 s at 117 px; the lines run across the four rows (360 px).
    const pOn = lines('p_on');
    expect(pOn[0]).toHaveAttribute('data-t', '0.2');
    expect(pOn[1]).toHaveAttribute('data-t', '1');
    expect(pOn[1]).toHaveAttribute('x1', '105');
    expect(pOn[1]).toHaveAttribute('y2', '360');
    expect(lines('qrs_on')[1]).toHaveAttribute('x1', '117');
    expect(lines('qrs_off')[1]).toHaveAttribute('x1', '123.75');
    expect(lines('t_off')[1]).toHaveAttribute('x1', '150');
    // Each kind its own dash, so they differ without colour.
    expect(new Set(screen.getAllByTestId('fiducial-line').map((l) => l.getAttribute('stroke-dasharray'))).size).toBe(4);
    // Thirteen QRS onsets in the 10 s page: R at 0.4 ... 9.2 s, and the one at 10 s begins at 9.96 s.
    expect(lines('qrs_on')).toHaveLength(13);
    const legend = screen.getByTestId('fiducial-legend');
    for (const text of ['P onset', 'QRS onset', 'QRS offset', 'T end']) expect(legend).toHaveTextContent(text);

    await userEvent.click(screen.getByTestId('ecg-speed-50'));
    // 50 mm/s: the trace starts at 15 mm (45 px), 150 px per second.
    expect(lines('qrs_on')[1]).toHaveAttribute('x1', '219');
  });

  it('tick each lead only inside the segment that shows it', async () => {
    renderEcg();
    await paper();
    await userEvent.click(screen.getByTestId('ecg-lead-marks'));
    const ticks = screen.getAllByTestId('lead-mark');
    const avr = ticks.filter((tick) => tick.getAttribute('data-lead') === 'aVR');
    // 3 x 4: aVR is row 0 from 2.5 to 5 s; its beats at 2.8, 3.6 and 4.4 s, six boundaries each.
    expect(avr).toHaveLength(18);
    for (const tick of avr) {
      expect(tick).toHaveAttribute('data-row', '0');
      const t = Number(tick.getAttribute('data-t'));
      expect(t >= 2.5 && t < 5).toBe(true);
    }
    // Its first: the P onset at 2.62 s, 30 + 2.62 x 75 = 226.5 px, at the foot of row 0 (90 px).
    expect(avr[0]).toHaveAttribute('data-kind', 'p_on');
    expect(avr[0]).toHaveAttribute('x1', '226.5');
    expect(avr[0]).toHaveAttribute('y2', String(90 - 1.5));
    // The rhythm strip (row 3) is lead II's over the whole page.
    const strip = ticks.filter((tick) => tick.getAttribute('data-row') === '3');
    expect(new Set(strip.map((tick) => tick.getAttribute('data-lead')))).toEqual(new Set(['II']));
    expect(screen.getByTestId('fiducial-legend')).toHaveTextContent("each lead's own P, QRS and T boundaries");
  });

  it('snap a caliper edge dropped within 2 mm of a line, and not one further', async () => {
    renderEcg();
    await paper();
    await userEvent.click(screen.getByTestId('ecg-fiducials'));
    await userEvent.click(screen.getByTestId('ecg-calipers'));
    const layer = screen.getByTestId('caliper-layer');
    // 2 mm is 6 px: pressed 2 px right of P onset (105) and released 2 px right of QRS onset (117).
    fireEvent.pointerDown(layer, { clientX: 107, clientY: 54, pointerId: 1, button: 0 });
    fireEvent.pointerMove(layer, { clientX: 119, clientY: 54, pointerId: 1 });
    fireEvent.pointerUp(layer, { clientX: 119, clientY: 54, pointerId: 1 });
    expect(screen.getByTestId('caliper-readout')).toHaveTextContent('160 ms · 375 bpm');
    // The later end dragged to 6.3 px (2.1 mm) right of QRS offset (123.75 px) stays where it is
    // dropped: 1.334 s.
    fireEvent.pointerDown(layer, { clientX: 117, clientY: 54, pointerId: 2, button: 0 });
    fireEvent.pointerMove(layer, { clientX: 130.05, clientY: 54, pointerId: 2 });
    fireEvent.pointerUp(layer, { clientX: 130.05, clientY: 54, pointerId: 2 });
    expect(screen.getByTestId('caliper-readout')).toHaveTextContent('334 ms');
  });

  it('show the median beats of every lead, labelled, with the global fiducials', async () => {
    renderEcg();
    await paper();
    await userEvent.click(screen.getByTestId('ecg-median'));
    expect(screen.getByTestId('ecg-median')).toHaveAttribute('aria-pressed', 'true');
    const panel = screen.getByTestId('median-panel');
    expect(panel).toHaveTextContent('Median beats');
    expect(screen.getAllByTestId('median-label').map((label) => label.textContent)).toEqual(LEADS);
    // Each cell crossed by the four fiducials; 0.8 s at 75 px/s is 60 px per cell, QRS onset at 21 px.
    const fiducials = screen.getAllByTestId('median-fiducial');
    expect(fiducials).toHaveLength(48);
    const avr = screen.getAllByTestId('median-cell')[3];
    expect(avr).toHaveAttribute('data-lead', 'aVR');
    expect(avr?.querySelector('[data-kind="qrs_on"]')).toHaveAttribute('x1', String(60 + 21));
    expect(screen.getByRole('img', { name: /Median beat of each lead at 25 mm\/s and 10 mm\/mV/ })).toBeInTheDocument();
  });
});
