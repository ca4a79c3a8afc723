import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Analysis } from '../../api/client';
import { MUSE_ECG_RESULT } from '../../test/ecg12Results';
import { makeWaveform as waveform } from '../../test/fixtures';
import { json, makeUser, mockServer, renderApp, requestsTo } from '../../test/utils';

const TWELVE = ['I', 'II', 'III', 'aVR', 'aVL', 'aVF', 'V1', 'V2', 'V3', 'V4', 'V5', 'V6'];

function analysis(overrides: Partial<Analysis> = {}): Analysis {
  return {
    id: 'a-1',
    modality: 'ecg',
    patientId: 'p-1',
    patientName: 'María López',
    screeningId: null,
    fileName: 'rest.xml',
    fileSha256: 'ab'.repeat(32),
    fileSize: 1000,
    files: [{ name: 'rest.xml', sha256: 'ab'.repeat(32), size: 1000 }],
    modelId: 'ecg-rhythm-gbdt',
    modelVersion: '1.2.0',
    createdAt: '2026-11-20T10:30:00.000Z',
    result: {
      analysis_id: 'a-1',
      model: 'ECG',
      label: 'af',
      prediction: 'Atrial fibrillation suspected',
      confidence: 0.9,
      risk_score: 0.8,
      recommendations: ['Arrange a 12-lead ECG within days.'],
      details: { heart_rate_bpm: 112 },
    },
    ...overrides,
  };
}

describe('Analysis page', () => {
  it('shows who and when, the 12-lead paper with its beats, and the full result', async () => {
    const fake = mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/analyses/a-1': () => json(200, analysis()),
      'GET /api/analyses/a-1/waveform': (request) => json(200, waveform(request, TWELVE)),
    });
    renderApp('/analyses/a-1');
    expect(await screen.findByRole('heading', { name: 'ECG Analysis', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'María López' })).toHaveAttribute('href', '/patients/p-1');
    expect(screen.getByText('rest.xml')).toBeInTheDocument();
    expect(screen.getByText('ecg-rhythm-gbdt 1.2.0')).toBeInTheDocument();
    const report = screen.getByRole('link', { name: 'Download PDF report' });
    expect(report).toHaveAttribute('href', '/api/analyses/a-1/report.pdf');
    expect(report).toHaveAttribute('download', 'cardio-analysis-a-1.pdf');

    // Twelve standard leads: the 3 x 4 layout and a rhythm strip, 10 s from the start.
    const paper = await screen.findByRole('img', { name: 'ECG waveform, 0:00.0 – 0:10.0 of 0:30.0' });
    expect(paper).toHaveAttribute('data-rows', '4');
    expect(paper).toHaveAttribute('data-beats-in-view', '10');
    expect(screen.getByRole('button', { name: '12-lead' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText(/25 mm\/s, 10 mm\/mV, 1 mV calibration pulse/)).toBeInTheDocument();
    const result = screen.getByRole('heading', { name: 'Result' }).closest('.card') as HTMLElement;
    expect(within(result).getByText('Atrial fibrillation suspected')).toBeInTheDocument();
    expect(within(result).getByText('Arrange a 12-lead ECG within days.')).toBeInTheDocument();

    // Scrolling asks the server for the next window only.
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Later' }));
    expect(await screen.findByRole('img', { name: 'ECG waveform, 0:05.0 – 0:15.0 of 0:30.0' })).toBeInTheDocument();
    const windows = requestsTo(fake, 'GET', '/api/analyses/a-1/waveform').map((r) => {
      const query = new URL(r.url).searchParams;
      return [query.get('start_s'), query.get('duration_s')];
    });
    // The first call, before the leads are known, is sized for one row of paper (10.3 s at 800 px).
    expect(windows).toEqual([
      ['0', '10.3'],
      ['0', '10'],
      ['5', '10'],
    ]);

    // All leads stacked, with the keyboard: End goes to the last window.
    await user.click(screen.getByRole('button', { name: 'All leads' }));
    const stacked = await screen.findByRole('img', { name: /^ECG waveform, 0:05\.0 – 0:15\.3 of 0:30\.0$/ });
    expect(stacked).toHaveAttribute('data-rows', '12');
    stacked.parentElement?.focus();
    await user.keyboard('{End}');
    expect(await screen.findByRole('img', { name: 'ECG waveform, 0:19.7 – 0:30.0 of 0:30.0' })).toBeInTheDocument();
  });

  it("shows the ECG device's own interpretation beside the result, apart from Cardio's finding", async () => {
    const result = analysis().result;
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/analyses/a-1': () =>
        json(
          200,
          analysis({
            result: {
              ...result,
              device_interpretation: {
                source: 'GE MUSE 9.0.9.18167, 12SL 241',
                statements: ['Sinus bradycardia with sinus arrhythmia with 1st degree A-V block'],
                measurements: [{ key: 'qt_ms', label: 'QTInterval', value: 434, unit: 'ms' }],
              },
            },
          }),
        ),
      'GET /api/analyses/a-1/waveform': (request) => json(200, waveform(request, TWELVE)),
    });
    renderApp('/analyses/a-1');
    const device = await screen.findByRole('region', { name: 'Device interpretation (unconfirmed)' });
    expect(device).toHaveClass('card');
    expect(within(device).getByText('GE MUSE 9.0.9.18167, 12SL 241')).toBeInTheDocument();
    expect(
      within(device).getByText('Sinus bradycardia with sinus arrhythmia with 1st degree A-V block'),
    ).toBeInTheDocument();
    expect(within(device).getByRole('rowheader', { name: 'QT' }).nextSibling).toHaveTextContent('434 ms');
    // Cardio's own result is unchanged and holds none of the device's words.
    const cardio = screen.getByRole('heading', { name: 'Result' }).closest('.card') as HTMLElement;
    expect(within(cardio).getByText('Atrial fibrillation suspected')).toBeInTheDocument();
    expect(within(cardio).queryByText(/Sinus bradycardia/)).not.toBeInTheDocument();
  });

  it("shows Cardio's 12-lead measurements and interpretation in the result, the device's in its card beside", async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/analyses/a-1': () =>
        json(
          200,
          analysis({
            fileName: 'ge-muse-example.xml',
            result: {
              ...MUSE_ECG_RESULT,
              analysis_id: 'a-1',
              device_interpretation: {
                source: 'GE MUSE 9.0.9.18167, 12SL 241',
                statements: ['Otherwise normal ECG'],
                measurements: [],
              },
            },
          }),
        ),
      'GET /api/analyses/a-1/waveform': (request) => json(200, waveform(request, TWELVE)),
    });
    renderApp('/analyses/a-1');
    const cardio = (await screen.findByRole('heading', { name: 'Result' })).closest('.card') as HTMLElement;
    const statements = within(cardio).getByRole('region', { name: 'Computer interpretation — unconfirmed' });
    expect(within(statements).getByText('Abnormal ECG')).toBeInTheDocument();
    expect(within(statements).getByText('Criterion: P duration >= 120 ms')).toBeInTheDocument();
    const measurements = within(cardio).getByRole('region', { name: 'ECG measurements (median beat)' });
    expect(within(measurements).getByRole('row', { name: /^QTc \(Bazett\) 433 ms/ })).toBeInTheDocument();
    expect(within(cardio).getByText('More details')).toBeInTheDocument();
    expect(within(cardio).queryByText('Additional Details')).not.toBeInTheDocument();
    // The device's interpretation stays in its own card, once.
    const device = screen.getByRole('region', { name: 'Device interpretation (unconfirmed)' });
    expect(device).toHaveClass('card');
    expect(cardio.contains(device)).toBe(false);
    expect(screen.getAllByRole('region', { name: 'Device interpretation (unconfirmed)' })).toHaveLength(1);
  });

  it('shows no device interpretation for a file that carried none', async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/analyses/a-1': () => json(200, analysis()),
      'GET /api/analyses/a-1/waveform': (request) => json(200, waveform(request, TWELVE)),
    });
    renderApp('/analyses/a-1');
    expect(await screen.findByRole('heading', { name: 'Result' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Device interpretation (unconfirmed)' })).not.toBeInTheDocument();
  });

  it('says why no beats are marked and offers no layout choice for one lead', async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/analyses/a-1': () => json(200, analysis({ fileName: 'strip.csv' })),
      'GET /api/analyses/a-1/waveform': (request) =>
        json(
          200,
          waveform(request, ['MLII'], {
            beats_s: [],
            marks_note: 'Recording too short: 4.0 s; at least 9 s is needed.',
          }),
        ),
    });
    renderApp('/analyses/a-1');
    const paper = await screen.findByRole('img', { name: /^ECG waveform/ });
    expect(paper).toHaveAttribute('data-rows', '1');
    expect(screen.queryByRole('button', { name: '12-lead' })).not.toBeInTheDocument();
    expect(
      screen.getByText('No beats marked: Recording too short: 4.0 s; at least 9 s is needed.'),
    ).toBeInTheDocument();
  });

  it('names the auscultation site of a heart sound and shades its murmur on the strip', async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/analyses/a-1': () =>
        json(
          200,
          analysis({
            modality: 'pcg',
            site: 'MV',
            fileName: 'mv.wav',
            result: {
              analysis_id: 'a-1',
              model: 'PCG',
              label: 'abnormal',
              prediction: 'Abnormal heart sounds suspected',
              confidence: 0.8,
              risk_score: 0.8,
              recommendations: [],
              details: { murmur: { verdict: 'present', probability: 0.9, timing: 'holosystolic', grade: 'II/VI' } },
            },
          }),
        ),
      'GET /api/analyses/a-1/waveform': (request) =>
        json(200, waveform(request, ['PCG'], { kind: 'pcg', s1_s: [0.1, 0.9], s2_s: [0.4, 1.2] })),
    });
    renderApp('/analyses/a-1');
    expect(await screen.findByTestId('analysis-site')).toHaveTextContent(
      'MV — Mitral area, the apex (5th intercostal space)',
    );
    const strip = await screen.findByRole('img', { name: /^PCG waveform.*the murmur \(holosystolic\) shaded/ });
    expect(strip).toHaveAttribute('data-murmur-spans', '2');
  });

  it('shows the server reason when the recording cannot be read, with a retry', async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/analyses/a-1': () => json(200, analysis()),
      'GET /api/analyses/a-1/waveform': () =>
        json(422, { detail: 'The recording cannot be shown: the recording has no channels.' }),
    });
    renderApp('/analyses/a-1');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The recording cannot be shown: the recording has no channels.');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it("says so for an analysis that is not the user's", async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/analyses/a-9': () => json(404, { detail: 'Analysis not found.' }),
    });
    renderApp('/analyses/a-9');
    expect(await screen.findByText('This analysis does not exist or is not yours.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Test Results' })).toHaveAttribute('href', '/test-results');
  });

  it('has no waveform for a clinical analysis', async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/analyses/a-1': () =>
        json(
          200,
          analysis({
            modality: 'clinical',
            files: [],
            fileName: null,
            result: { ...analysis().result, model: 'Clinical' },
          }),
        ),
    });
    renderApp('/analyses/a-1');
    expect(await screen.findByRole('heading', { name: 'Clinical Analysis', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Waveform' })).not.toBeInTheDocument();
  });
});
