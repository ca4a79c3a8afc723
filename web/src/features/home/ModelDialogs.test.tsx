import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PredictionResult } from '../../api/client';
import { json, makeUser, mockServer, renderApp, requestsTo, type Handler } from '../../test/utils';

const RESULT: PredictionResult = {
  analysis_id: 'a-1',
  model: 'ECG',
  label: 'af',
  prediction: 'Atrial fibrillation suspected',
  confidence: 0.8734,
  risk_score: 0.82,
  recommendations: ['Arrange a 12-lead ECG within days.', 'Not a diagnosis.'],
  details: {
    heart_rate_bpm: 96.456,
    quality: { usable: 'yes', snr_db: 12.3 },
    model: { id: 'ecg-rhythm-gbdt', version: '1.0.0', metric: 'cv_mean_f1_nao', value: 0.8 },
  },
};

function server(extra: Record<string, Handler>) {
  return mockServer({
    'GET /api/auth/me': () => json(200, makeUser()),
    'GET /api/dashboard': () => json(200, { totalPatients: 0, screeningsToday: 0, testsToday: 0, needsReviewToday: 0 }),
    'GET /api/audit': () => json(200, []),
    ...extra,
  });
}

async function openModel(name: RegExp) {
  // Files are offered whatever the picker's `accept` says, as a drop or "All files" would.
  const user = userEvent.setup({ applyAccept: false });
  await user.click(await screen.findByRole('button', { name }));
  return { user, dialog: await screen.findByRole('dialog') };
}

describe('Home model modals', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('uploads an ECG file and shows the results as the spec formats them', async () => {
    const fake = server({ 'POST /api/predict/ecg/upload': () => json(200, RESULT) });
    const append = vi.spyOn(FormData.prototype, 'append');
    renderApp('/home');
    const { user, dialog } = await openModel(/ECG/);
    const analyze = within(dialog).getByRole('button', { name: 'Analyze' });
    expect(analyze).toBeDisabled();

    const input = dialog.querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(input, new File(['x'.repeat(2048)], 'notes.docx'));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Please upload a valid ECG file (.pdf, .dat, .txt, .csv, .ecg)',
    );
    expect(analyze).toBeDisabled();

    await user.upload(input, new File(['x'.repeat(3 * 1024 * 1024)], 'holter.CSV', { type: 'text/csv' }));
    expect(within(dialog).getByText('Selected: holter.CSV (3.00 MB)')).toBeInTheDocument();
    await user.click(analyze);

    const results = await screen.findByRole('dialog', { name: 'Analysis Results' });
    const [request] = requestsTo(fake, 'POST', '/api/predict/ecg/upload');
    expect(request?.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    // jsdom's File does not survive undici's multipart encoder, so check what was appended.
    expect(append).toHaveBeenCalledWith('file', expect.any(File), 'holter.CSV');
    expect(results).toHaveTextContent('Atrial fibrillation suspected');
    expect(within(results).getByText(/High Risk/)).toHaveClass('badge--danger');
    expect(results).toHaveTextContent('Confidence87.3%');
    expect(results).toHaveTextContent('Risk Score82.0%');
    const recommendations = within(results).getByRole('heading', { name: 'Clinical Recommendations' })
      .nextElementSibling as HTMLElement;
    expect(recommendations.tagName).toBe('OL');
    expect(
      within(recommendations)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(RESULT.recommendations);
    expect(results).toHaveTextContent('heart rate bpm: 96.46');
    expect(results).toHaveTextContent('quality: usable: yessnr db: 12.30');
    expect(results).toHaveTextContent('ecg-rhythm-gbdt 1.0.0');
    expect(results).toHaveTextContent(
      'This analysis is for informational purposes only and does not replace professional medical advice.',
    );

    await user.click(within(results).getByRole('button', { name: 'Analyze Another' }));
    const form = await screen.findByRole('dialog', { name: 'ECG' });
    expect(within(form).queryByText(/Selected:/)).not.toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Analyze' })).toBeDisabled();
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('sends a WFDB header with its signal file, naming the part that is missing', async () => {
    server({ 'POST /api/predict/ecg/upload': () => json(200, RESULT) });
    const append = vi.spyOn(FormData.prototype, 'append');
    renderApp('/home');
    const { user, dialog } = await openModel(/ECG/);
    const analyze = within(dialog).getByRole('button', { name: 'Analyze' });
    const input = dialog.querySelector('input[type=file]') as HTMLInputElement;
    expect(input.multiple).toBe(true);
    expect(input.accept).toContain('.hea');
    const header = new File(['100 1 360 2\n100.dat 16 200 16 0 0 0 0 MLII\n'], '100.hea');
    const signal = new File([new Uint8Array([1, 0, 2, 0])], '100.dat');

    await user.upload(input, header);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      '100.hea names the signal file 100.dat: choose it too (both files together, or one after the other).',
    );
    expect(analyze).toBeDisabled();
    await user.upload(input, signal);
    expect(await within(dialog).findByText(/^Selected: 100.hea, 100.dat/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    await user.click(analyze);
    await screen.findByRole('dialog', { name: 'Analysis Results' });
    expect(append).toHaveBeenCalledWith('file', header, '100.hea');
    expect(append).toHaveBeenCalledWith('file', signal, '100.dat');

    await user.click(screen.getByRole('button', { name: 'Analyze Another' }));
    const form = await screen.findByRole('dialog', { name: 'ECG' });
    const again = form.querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(again, signal);
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      '100.dat holds WFDB samples without their header: choose it together with 100.hea.',
    );
    expect(within(form).getByRole('button', { name: 'Analyze' })).toBeDisabled();
  });

  it('sends the clinical modal defaults and shows a 503 as the spec words it', async () => {
    const fake = server({
      'POST /api/predict/clinical': () => json(503, { detail: 'Model not loaded. Please check backend server.' }),
    });
    renderApp('/home');
    const { user, dialog } = await openModel(/Clinical Data/);
    const age = within(dialog).getByLabelText('Age');
    expect(age).toHaveValue(50);
    await user.clear(age);
    await user.type(age, '63');
    await user.click(within(dialog).getByRole('button', { name: 'Analyze' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Model not loaded. Please check backend server.',
    );
    const [request] = requestsTo(fake, 'POST', '/api/predict/clinical');
    expect(await request?.json()).toEqual({
      age: 63,
      chest_pain_type: 0,
      cholesterol: 200,
      fasting_blood_sugar: 100,
      exercise_induced_angina: 0,
      vessels_colored_by_flourosopy: 0,
      thalassemia: 0,
    });
  });

  it('shows PPG sizes in KB, refuses other files, and maps a 422 to "Validation Error: ..."', async () => {
    server({
      'POST /api/predict/ppg/upload': () =>
        json(422, { detail: 'Recording too short: 4.0 s; at least 8 s is needed.' }),
    });
    renderApp('/home');
    const { user, dialog } = await openModel(/PPG/);
    const input = dialog.querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(input, new File(['1\n'.repeat(768)], 'pulse.json', { type: 'application/json' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please upload a CSV or TXT file');
    await user.upload(input, new File(['1\n'.repeat(768)], 'pulse.txt', { type: 'text/plain' }));
    expect(within(dialog).getByText('Selected: pulse.txt (1.50 KB)')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Analyze' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Validation Error: Recording too short: 4.0 s; at least 8 s is needed.',
    );
  });

  it('closes with Escape and returns focus to the card', async () => {
    server({});
    renderApp('/home');
    const { user } = await openModel(/PCG/);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /PCG/ })).toHaveFocus();
  });
});
