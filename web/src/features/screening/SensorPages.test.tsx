import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Analysis, CombinedResult, PredictionResult } from '../../api/client';
import { makeAnalysis, makeClinicalRecord, makeScreening, makeWaveform } from '../../test/fixtures';
import { json, makeUser, mockServer, renderApp, requestsTo, type Handler } from '../../test/utils';

function server(handlers: Record<string, Handler> = {}) {
  return mockServer({
    'GET /api/auth/me': () => json(200, makeUser()),
    'GET /api/screenings/s-1': () => json(200, makeScreening()),
    'GET /api/screenings/other': () => json(404, { detail: 'Screening not found.' }),
    'GET /api/analyses': () => json(200, []),
    ...handlers,
  });
}

const PCG_RESULT: PredictionResult = {
  analysis_id: 'a-9',
  model: 'PCG',
  label: 'normal',
  prediction: 'Normal heart sounds',
  confidence: 0.8,
  risk_score: 0.2,
  recommendations: ['Nothing to do.'],
  details: {},
};

describe('Signal steps with a screening', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each([
    ['/sensor-pcg', 'Continue to PPG', 'Please complete PCG recording first', '/clinical-data?screening=s-1'],
    ['/sensor-ppg', 'Continue to ECG', 'Please complete PPG recording first', '/sensor-pcg?screening=s-1'],
  ])('%s starts Ready with Continue disabled and the spec reason', async (path, next, reason, back) => {
    server();
    renderApp(`${path}?screening=s-1`);
    expect(await screen.findByText('María López')).toBeInTheDocument();
    expect(await screen.findByRole('status')).toHaveTextContent('Ready');
    const button = screen.getByRole('button', { name: next });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(reason);
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', back);
  });

  it('an uploaded heart-sound file is stored with the screening, completes the step and enables Continue', async () => {
    const append = vi.spyOn(FormData.prototype, 'append');
    const fake = server({ 'POST /api/predict/pcg/upload': () => json(200, PCG_RESULT) });
    renderApp('/sensor-pcg?screening=s-1');
    const user = userEvent.setup({ applyAccept: false });
    const input = (await screen.findByText('Browse Files')).parentElement?.querySelector('input') as HTMLInputElement;

    await user.upload(input, new File(['x'], 'notes.txt', { type: 'text/plain' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please upload an audio file (e.g., .wav, .mp3)');

    await user.upload(input, new File(['RIFF'], 'heart.wav', { type: 'audio/wav' }));
    expect(await screen.findByText('Analysed: Normal heart sounds')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Completed');
    expect(requestsTo(fake, 'POST', '/api/predict/pcg/upload')).toHaveLength(1);
    expect(append).toHaveBeenCalledWith('screening_id', 's-1');
    expect(screen.getByRole('link', { name: 'Continue to PPG' })).toHaveAttribute('href', '/sensor-ppg?screening=s-1');

    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(screen.getByRole('status')).toHaveTextContent('Ready');
    expect(screen.getByRole('button', { name: 'Continue to PPG' })).toBeDisabled();
  });

  it.each([
    ['abnormal', 'Abnormal heart sounds suspected', 'upload-step__result--abnormal'],
    ['unsure', 'Unsure: quality too poor', 'upload-step__result--inconclusive'],
    ['normal', 'Normal heart sounds', 'upload-step__result--normal'],
  ])(
    'a heart-sound result labelled %s is styled by its finding (success only when normal)',
    async (label, prediction, style) => {
      server({
        'POST /api/predict/pcg/upload': () => json(200, { ...PCG_RESULT, label, prediction, risk_score: 0.3 }),
      });
      renderApp('/sensor-pcg?screening=s-1');
      const user = userEvent.setup({ applyAccept: false });
      const input = (await screen.findByText('Browse Files')).parentElement?.querySelector('input') as HTMLInputElement;
      await user.upload(input, new File(['RIFF'], 'heart.wav', { type: 'audio/wav' }));
      const line = (await screen.findByText(`Analysed: ${prediction}`)).parentElement as HTMLElement;
      expect(line).toHaveClass(style);
      if (label !== 'normal') expect(line).not.toHaveClass('upload-step__result--normal');

      await user.click(screen.getByRole('button', { name: 'View result' }));
      const badge = within(await screen.findByRole('dialog')).getByText(
        label === 'unsure' ? /Inconclusive/ : /Low Risk/,
      );
      expect(badge).toHaveClass(
        label === 'normal' ? 'badge--success' : label === 'unsure' ? 'badge--muted' : 'badge--warning',
      );
    },
  );

  it('a step already done for the screening (after a reload) is Completed', async () => {
    server({
      'GET /api/analyses': () =>
        json(200, [
          {
            id: 'a-1',
            modality: 'ppg',
            patientId: 'p-1',
            patientName: 'María López',
            screeningId: 's-1',
            fileName: 'pulse.csv',
            fileSha256: 'ab'.repeat(32),
            fileSize: 100,
            files: [{ name: 'pulse.csv', sha256: 'ab'.repeat(32), size: 100 }],
            modelId: 'ppg-rhythm-gbdt',
            modelVersion: '1.0.0',
            createdAt: '2026-11-20T10:30:00.000Z',
            result: { ...PCG_RESULT, model: 'PPG', prediction: 'Regular pulse rhythm' },
          },
        ]),
    });
    renderApp('/sensor-ppg?screening=s-1');
    expect(await screen.findByText('Analysed: Regular pulse rhythm')).toBeInTheDocument();
    const next = screen.getByRole('link', { name: 'Continue to ECG' });
    expect(next).toHaveAttribute('href', '/sensor-ecg?screening=s-1');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'View result' }));
    expect(within(await screen.findByRole('dialog')).getByText('Regular pulse rhythm')).toBeInTheDocument();
  });

  it('ECG shows the patient, goes back to PPG and asks for a file first', async () => {
    server();
    renderApp('/sensor-ecg?screening=s-1');
    expect(await screen.findByText('María López')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/sensor-ppg?screening=s-1');
    // The step bar marks the three steps before the ECG as completed, and the ECG as current.
    const steps = within(screen.getByRole('navigation', { name: 'Screening steps' })).getAllByRole('listitem');
    expect(steps.map((s) => s.textContent)).toEqual([
      'Clinical Data (completed)',
      'PCG (completed)',
      'PPG (completed)',
      '4ECG',
    ]);
    for (const done of steps.slice(0, 3)) expect(done).toHaveClass('step-progress__item--done');
    expect(steps[3]).toHaveAttribute('aria-current', 'step');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Analyze ECG Data' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please upload an ECG file first');
  });

  it('Analyze ECG Data runs the whole screening and shows the ECG result, then the combined result', async () => {
    const combined: CombinedResult = {
      screening_id: 's-1',
      risk_score: 0.82,
      risk_level: 'high',
      driver: 'ecg',
      rule: 'Overall risk = the highest risk score among the modalities that could be judged.',
      based_on: 2,
      out_of: 4,
      modalities: [
        {
          modality: 'clinical',
          status: 'performed',
          analysis_id: 'a-1',
          label: 'no_disease',
          prediction: 'Coronary artery disease unlikely',
          risk_score: 0.2,
        },
        {
          modality: 'pcg',
          status: 'not_performed',
          analysis_id: null,
          label: null,
          prediction: null,
          risk_score: null,
        },
        {
          modality: 'ppg',
          status: 'inconclusive',
          analysis_id: 'a-2',
          label: 'noisy',
          prediction: 'Too noisy to judge',
          risk_score: 0.1,
        },
        {
          modality: 'ecg',
          status: 'performed',
          analysis_id: 'a-3',
          label: 'af',
          prediction: 'Atrial fibrillation suspected',
          risk_score: 0.82,
        },
      ],
      recommendations: ['At least one modality (ECG) shows a high risk.', 'PCG was not performed in this screening.'],
      combined_at: '2026-11-21T10:10:00.000Z',
    };
    const ecg = makeAnalysis();
    let stored: Analysis[] = [];
    let screening = makeScreening({ clinical: makeClinicalRecord() });
    const fake = server({
      'GET /api/screenings/s-1': () => json(200, screening),
      'GET /api/analyses': () => json(200, stored),
      'GET /api/analyses/a-3/waveform': (request) => json(200, makeWaveform(request, ['II'])),
      'POST /api/predict/clinical': () => json(200, { ...PCG_RESULT, model: 'Clinical' }),
      'POST /api/predict/ecg/upload': () => {
        stored = [ecg];
        return json(200, ecg.result);
      },
      'POST /api/screenings/s-1/combine': () => {
        screening = { ...screening, status: 'completed', combined };
        return json(200, combined);
      },
    });
    renderApp('/sensor-ecg?screening=s-1');
    const user = userEvent.setup();
    const input = (await screen.findByText('Browse Files')).parentElement?.querySelector('input') as HTMLInputElement;
    await user.upload(input, new File(['1,2\n'], 'ecg.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Analyze ECG Data' }));

    const ecgResult = await screen.findByRole('region', { name: 'ECG result' });
    expect(await within(ecgResult).findByText('Atrial fibrillation suspected')).toBeInTheDocument();
    expect(within(ecgResult).getByRole('link', { name: 'Open the ECG analysis' })).toHaveAttribute(
      'href',
      '/analyses/a-3',
    );
    const result = screen.getByRole('region', { name: 'Combined screening result' });
    expect(ecgResult.compareDocumentPosition(result) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(result).toHaveTextContent('Overall risk 82.0% (from ECG)');
    expect(within(result).getByText(/High Risk/)).toHaveClass('badge--danger');
    expect(within(result).getByText(/High Risk/)).toHaveTextContent('High Risk · based on 2 of 4');
    const rows = within(result)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
    expect(rows).toEqual([
      'ClinicalPerformedCoronary artery disease unlikely20.0%View result',
      'PCGNot performed——Record PCG',
      'PPGInconclusiveToo noisy to judge10.0%View resultRecord PPG',
      'ECGPerformedAtrial fibrillation suspected82.0%View result',
    ]);
    expect(result).toHaveTextContent('How it was combined: Overall risk = the highest risk score');
    expect(within(result).getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/home');
    expect(within(result).getByRole('link', { name: 'Download PDF report' })).toHaveAttribute(
      'href',
      '/api/screenings/s-1/report.pdf',
    );
    // The ECG is sent first; the clinical model runs once it is accepted.
    const order = fake.mock.calls
      .map(([input]) => input)
      .filter((input): input is Request => input instanceof Request && input.method === 'POST')
      .map((request) => new URL(request.url).pathname);
    expect(order).toEqual(['/api/predict/ecg/upload', '/api/predict/clinical', '/api/screenings/s-1/combine']);
    const [clinical] = requestsTo(fake, 'POST', '/api/predict/clinical');
    expect(await clinical?.json()).toEqual({ ...makeClinicalRecord().parameters, screening_id: 's-1' });
  });

  it('a refused ECG stores nothing else: after the retry the clinical model has run once', async () => {
    let attempts = 0;
    const fake = server({
      'GET /api/screenings/s-1': () => json(200, makeScreening({ clinical: makeClinicalRecord() })),
      'POST /api/predict/clinical': () => json(200, { ...PCG_RESULT, model: 'Clinical' }),
      'POST /api/predict/ecg/upload': () => {
        attempts += 1;
        return attempts === 1
          ? json(415, { detail: 'Unsupported file format: PDF files are not read.' })
          : json(200, { ...PCG_RESULT, model: 'ECG' });
      },
      'POST /api/screenings/s-1/combine': () => json(500, { detail: 'Combination failed.' }),
    });
    renderApp('/sensor-ecg?screening=s-1');
    const user = userEvent.setup();
    const input = (await screen.findByText('Browse Files')).parentElement?.querySelector('input') as HTMLInputElement;
    await user.upload(input, new File(['%PDF-1.7'], 'scan.pdf', { type: 'application/pdf' }));
    await user.click(screen.getByRole('button', { name: 'Analyze ECG Data' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Unsupported file format: PDF files are not read.');
    expect(requestsTo(fake, 'POST', '/api/predict/clinical')).toHaveLength(0);

    await user.upload(input, new File(['1,2\n'], 'ecg.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Analyze ECG Data' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Combination failed.');
    expect(requestsTo(fake, 'POST', '/api/predict/clinical')).toHaveLength(1);
    expect(requestsTo(fake, 'POST', '/api/predict/ecg/upload')).toHaveLength(2);

    // A retry after the failed combination sends neither the same ECG nor the clinical values again.
    await user.click(screen.getByRole('button', { name: 'Analyze ECG Data' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Combination failed.');
    expect(requestsTo(fake, 'POST', '/api/predict/ecg/upload')).toHaveLength(2);
    expect(requestsTo(fake, 'POST', '/api/screenings/s-1/combine')).toHaveLength(2);
  });

  it('does not run the clinical model again when the screening has a result of its current values', async () => {
    const clinical = makeAnalysis(
      { id: 'a-1', modality: 'clinical', createdAt: '2026-11-21T10:06:00.000Z', files: [], fileName: null },
      { model: 'Clinical', label: 'no_disease', prediction: 'Coronary artery disease unlikely', risk_score: 0.2 },
    );
    const fake = server({
      'GET /api/screenings/s-1': () => json(200, makeScreening({ clinical: makeClinicalRecord() })),
      'GET /api/analyses': () => json(200, [clinical]),
      'POST /api/predict/ecg/upload': () => json(200, { ...PCG_RESULT, model: 'ECG' }),
      'POST /api/screenings/s-1/combine': () => json(500, { detail: 'Combination failed.' }),
    });
    renderApp('/sensor-ecg?screening=s-1');
    const user = userEvent.setup();
    const input = (await screen.findByText('Browse Files')).parentElement?.querySelector('input') as HTMLInputElement;
    await user.upload(input, new File(['1,2\n'], 'ecg.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Analyze ECG Data' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Combination failed.');
    expect(requestsTo(fake, 'POST', '/api/predict/clinical')).toHaveLength(0);
  });

  it('an ECG the model refuses returns to the form with the spec error text', async () => {
    const fake = server({
      'POST /api/predict/ecg/upload': () =>
        json(422, { detail: 'Recording too short: 4.0 s; at least 9 s is needed.' }),
    });
    renderApp('/sensor-ecg?screening=s-1');
    const user = userEvent.setup();
    const input = (await screen.findByText('Browse Files')).parentElement?.querySelector('input') as HTMLInputElement;
    await user.upload(input, new File(['1,2\n'], 'ecg.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Analyze ECG Data' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Validation Error: Recording too short: 4.0 s; at least 9 s is needed.',
    );
    expect(screen.getByRole('button', { name: 'Analyze ECG Data' })).toBeEnabled();
    expect(requestsTo(fake, 'POST', '/api/screenings/s-1/combine')).toHaveLength(0);
  });

  it.each([
    ['/sensor-pcg', 'Please start from patient intake.'],
    ['/sensor-ppg', 'Please complete previous steps first.'],
  ])("%s with another doctor's (unknown) screening shows the missing state", async (path, text) => {
    server();
    renderApp(`${path}?screening=other`);
    expect(await screen.findByText('Session Data Missing')).toBeInTheDocument();
    expect(screen.getByText(text)).toBeInTheDocument();
  });
});
