import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Analysis, WaveformView } from '../../api/client';
import i18n from '../../i18n';
import { makeAnalysis, makeWaveform } from '../../test/fixtures';
import { json, makeUser, mockServer, renderApp, requestsTo } from '../../test/utils';

/** A 30 min 5 s Holter-like record: 70 bpm, no beats while too noisy (60-90 s), faster and irregular in AF. */
const DURATION = 1805;
const BEATS = (() => {
  const beats: number[] = [];
  for (let t = 0.4; t < 60; t += 60 / 70) beats.push(Math.round(t * 1000) / 1000);
  for (let t = 90.2; t < 1140; t += 60 / 70) beats.push(Math.round(t * 1000) / 1000);
  for (let t = 1140.3, i = 0; t < DURATION; t += i % 2 ? 0.5 : 0.7, i += 1) beats.push(Math.round(t * 1000) / 1000);
  return beats;
})();

const EPISODES = [
  { kind: 'noisy', start_s: 60, end_s: 90 },
  { kind: 'pause', start_s: 300, end_s: 303.2 },
  { kind: 'af', start_s: 1140, end_s: 1805 },
];

function longAnalysis(details: Record<string, unknown>): Analysis {
  return makeAnalysis(
    { id: 'a-9', fileName: 'holter.edf', files: [{ name: 'holter.edf', sha256: 'cd'.repeat(32), size: 9000 }] },
    {
      analysis_id: 'a-9',
      model: 'ECG',
      label: 'af',
      prediction: 'Atrial fibrillation suspected',
      confidence: 0.9,
      risk_score: 0.8,
      recommendations: [],
      details,
    },
  );
}

const LONG_DETAILS = {
  episodes: EPISODES,
  af_burden: 665 / 1805,
  analysed_s: 1805,
  noisy_s: 30,
};

/** One window of a single-lead record of `DURATION` seconds, 100 Hz, with the whole record's beats. */
function window(request: Request): WaveformView {
  const query = new URL(request.url).searchParams;
  const start = Number(query.get('start_s'));
  const end = Math.min(DURATION, start + Number(query.get('duration_s')));
  return {
    kind: 'ecg',
    sampling_rate_hz: 100,
    source_rate_hz: 250,
    duration_s: DURATION,
    start_s: start,
    end_s: end,
    channels: [
      {
        name: 'II',
        unit: 'mV',
        samples: Array.from({ length: Math.round((end - start) * 100) }, (_, i) => Math.sin(i / 10)),
      },
    ],
    analysed_channel: 0,
    beats_s: BEATS,
    s1_s: [],
    s2_s: [],
    marks_note: null,
  };
}

function serve(analysis: Analysis) {
  return mockServer({
    'GET /api/auth/me': () => json(200, makeUser()),
    'GET /api/analyses/a-9': () => json(200, analysis),
    'GET /api/analyses/a-9/waveform': (request) => json(200, window(request)),
  });
}

/** The start of each window asked for, seconds. */
function starts(fake: ReturnType<typeof mockServer>): number[] {
  return requestsTo(fake, 'GET', '/api/analyses/a-9/waveform').map((r) =>
    Number(new URL(r.url).searchParams.get('start_s')),
  );
}

afterEach(async () => {
  await act(() => i18n.changeLanguage('en'));
});

describe("A long recording's analysis page", () => {
  it('draws the whole record with its episodes, and moves the paper from the timeline', async () => {
    const fake = serve(longAnalysis(LONG_DETAILS));
    renderApp('/analyses/a-9');
    const timeline = await screen.findByRole('slider', { name: 'Whole recording' });
    await screen.findByRole('img', { name: 'ECG waveform, 0:00.0 – 0:10.3 of 30:05.0' });
    expect(timeline).toHaveAttribute('aria-valuetext', 'Paper at 0:00:00 – 0:00:10 of 0:30:05');
    // At 800 px the plot runs from x 40 to 776: 1140 s of 1805 s is at 504.8 px, AF to the end.
    const af = timeline.querySelector('[data-episode="af"]') as SVGRectElement;
    expect(af.getAttribute('x')).toBe('504.8');
    expect(af.getAttribute('width')).toBe('271.2');
    const noisy = timeline.querySelector('[data-episode="noisy"]') as SVGRectElement;
    expect(noisy.getAttribute('x')).toBe('64.5');
    expect(noisy.getAttribute('fill')).toMatch(/^url\(#hatch-/);
    expect(timeline.querySelector('[data-episode="pause"] line')).toHaveAttribute('x1', '162.3');
    // The trend breaks where no beats were found (60-90 s): two sub-paths, 70 bpm then faster.
    const trend = screen.getByTestId('timeline-trend').getAttribute('d') ?? '';
    expect(trend.match(/M/g)).toHaveLength(2);
    expect(screen.getByText('0:25:00')).toBeInTheDocument();

    // Right: the next window; a click on the AF band centres the paper on the time clicked.
    timeline.focus();
    const user = userEvent.setup();
    await user.keyboard('{ArrowRight}');
    await screen.findByRole('img', { name: 'ECG waveform, 0:10.3 – 0:20.6 of 30:05.0' });
    expect(starts(fake).at(-1)).toBe(10.3);
    fireEvent.click(timeline, { clientX: 40 + (1140 * 736) / 1805 });
    await screen.findByRole('img', { name: /ECG waveform, 18:54\.\d – 19:05\.\d of 30:05\.0/ });
    expect(starts(fake).at(-1)).toBeCloseTo(1140 - 10.3 / 2, 5);
    expect(Number(screen.getByTestId('timeline-window').getAttribute('x'))).toBeCloseTo(502.7, 1);
    await user.keyboard('{End}');
    expect(await screen.findByRole('img', { name: 'ECG waveform, 29:54.7 – 30:05.0 of 30:05.0' })).toBeInTheDocument();
  });

  it('lists the episodes with their durations, sums them up, and shows one on the paper', async () => {
    const fake = serve(longAnalysis(LONG_DETAILS));
    renderApp('/analyses/a-9');
    await screen.findByRole('img', { name: /ECG waveform, 0:00\.0/ });
    expect(screen.getByTestId('record-summary')).toHaveTextContent(
      /^30 min 5 s analysed · AF burden 37% · 1 AF episode of 11 min 5 s · 30 s too noisy to read$/,
    );
    // The result's headline says how much was analysed.
    const result = screen.getByRole('heading', { name: 'Result' }).closest('.card') as HTMLElement;
    expect(within(result).getByText('30 min 5 s analysed')).toBeInTheDocument();

    const table = screen.getByRole('table');
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    const kinds = within(table)
      .getAllByRole('rowheader')
      .map((cell) => cell.textContent);
    expect(kinds).toEqual(['Too noisy to read', 'Pause', 'Atrial fibrillation']);
    expect(rows).toEqual([
      ['0:01:00', '0:01:30', '30 s', 'Show'],
      ['0:05:00', '0:05:03', '3 s', 'Show'],
      ['0:19:00', '0:30:05', '11 min 5 s', 'Show'],
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Show Pause at 0:05:00' }));
    await screen.findByRole('img', { name: /ECG waveform, 4:54\.9 – 5:05\.\d of 30:05\.0/ });
    expect(starts(fake).at(-1)).toBeCloseTo(300 - 10.3 / 2, 5);
  });

  it('words the summary in Spanish', async () => {
    await act(() => i18n.changeLanguage('es'));
    serve(longAnalysis({ ...LONG_DETAILS, episodes: [...EPISODES, { kind: 'af', start_s: 400, end_s: 460 }] }));
    renderApp('/analyses/a-9');
    await screen.findByRole('slider', { name: 'Toda la grabación' });
    expect(await screen.findByTestId('record-summary')).toHaveTextContent(
      /^30 min 5 s analizados · Carga de FA 37 % · 2 episodios de FA, el más largo de 11 min 5 s · 30 s con demasiado ruido para leer$/,
    );
    expect(screen.getByRole('cell', { name: '1 min' })).toBeInTheDocument();
  });

  it('says so when no episode was found', async () => {
    serve(longAnalysis({ ...LONG_DETAILS, episodes: [], af_burden: 0, noisy_s: 0 }));
    renderApp('/analyses/a-9');
    expect(await screen.findByText('No episode found in the whole recording.')).toBeInTheDocument();
    expect(screen.getByTestId('record-summary')).toHaveTextContent(/^30 min 5 s analysed · AF burden 0%$/);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows only the heart-rate trend and a note for a long result without episodes', async () => {
    serve(longAnalysis({ heart_rate_bpm: 72 }));
    renderApp('/analyses/a-9');
    const timeline = await screen.findByRole('slider', { name: 'Whole recording' });
    expect(timeline.querySelector('[data-episode]')).toBeNull();
    expect(screen.getByTestId('timeline-trend').getAttribute('d')).not.toBe('');
    expect(screen.getByText('Episodes were not computed for this result.')).toBeInTheDocument();
    expect(screen.queryByTestId('record-summary')).not.toBeInTheDocument();
    expect(screen.queryByText(/ analysed$/)).not.toBeInTheDocument();
  });

  it('adds nothing to a record of one window', async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/analyses/a-9': () => json(200, longAnalysis({ heart_rate_bpm: 72, analysed_s: 30 })),
      'GET /api/analyses/a-9/waveform': (request) => json(200, makeWaveform(request, ['II'])),
    });
    renderApp('/analyses/a-9');
    await screen.findByRole('img', { name: 'ECG waveform, 0:00.0 – 0:10.3 of 0:30.0' });
    expect(screen.queryByRole('slider', { name: 'Whole recording' })).not.toBeInTheDocument();
    expect(screen.queryByText(/ analysed$/)).not.toBeInTheDocument();
    expect(screen.queryByText('Episodes were not computed for this result.')).not.toBeInTheDocument();
  });
});
