import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Analysis, CombinedResult, ModalityResult, Review } from '../../api/client';
import { MUSE_ECG_RESULT } from '../../test/ecg12Results';
import { makeAnalysis, makeClinicalRecord, makeScreening, makeWaveform } from '../../test/fixtures';
import { json, makeUser, mockServer, renderApp, requestsTo } from '../../test/utils';

const NOT_PERFORMED = { status: 'not_performed', analysis_id: null, label: null, prediction: null, risk_score: null };

/** A combined result of `s-1` whose ECG (a-3) is normal and low risk; the other modalities as given. */
function combined(
  modalities: Partial<Record<'clinical' | 'pcg' | 'ppg', Partial<ModalityResult>>>,
  overrides: Partial<CombinedResult> = {},
): CombinedResult {
  const rows: ModalityResult[] = (['clinical', 'pcg', 'ppg'] as const).map((modality) => ({
    modality,
    ...NOT_PERFORMED,
    ...modalities[modality],
  })) as ModalityResult[];
  rows.push({
    modality: 'ecg',
    status: 'performed',
    analysis_id: 'a-3',
    label: 'normal',
    prediction: 'Normal sinus rhythm',
    risk_score: 0.12,
  });
  const basedOn = rows.filter((m) => m.status === 'performed').length;
  return {
    screening_id: 's-1',
    risk_score: Math.max(...rows.filter((m) => m.status === 'performed').map((m) => m.risk_score ?? 0)),
    risk_level: 'low',
    driver: 'ecg',
    rule: 'Overall risk = the highest risk score among the modalities that could be judged.',
    based_on: basedOn,
    out_of: 4,
    modalities: rows,
    recommendations: ['No modality that could be judged shows more than a low risk.'],
    combined_at: '2026-11-21T10:10:00.000Z',
    ...overrides,
  };
}

const NORMAL_ECG = makeAnalysis(
  {},
  {
    label: 'normal',
    prediction: 'Normal sinus rhythm',
    confidence: 0.91,
    risk_score: 0.12,
    recommendations: ['No rhythm abnormality found; repeat if symptoms occur.'],
  },
);

function server(state: { combined: CombinedResult; analyses: Analysis[]; reviews?: Review[] }) {
  return mockServer({
    'GET /api/auth/me': () => json(200, makeUser()),
    'GET /api/screenings/s-1': () =>
      json(200, makeScreening({ status: 'completed', clinical: makeClinicalRecord(), combined: state.combined })),
    'GET /api/analyses': () => json(200, state.analyses),
    'GET /api/analyses/a-3/waveform': (request) => json(200, makeWaveform(request, ['II'])),
    'GET /api/screenings/s-1/reviews': () => json(200, state.reviews ?? []),
  });
}

describe('The ECG step of a completed screening', () => {
  it("shows the ECG's own result with its strip and beats, and a link to its analysis, before the combined table", async () => {
    server({ combined: combined({}), analyses: [NORMAL_ECG] });
    renderApp('/sensor-ecg?screening=s-1');

    const ecg = await screen.findByRole('region', { name: 'ECG result' });
    expect(await within(ecg).findByText('Normal sinus rhythm')).toBeInTheDocument();
    expect(within(ecg).getByText('Confidence').nextSibling).toHaveTextContent('91.0%');
    expect(within(ecg).getByText('Risk Score').nextSibling).toHaveTextContent('12.0%');
    expect(within(ecg).getByText('No rhythm abnormality found; repeat if symptoms occur.')).toBeInTheDocument();
    expect(within(ecg).getByText(/Low Risk/)).toHaveClass('badge--success');
    const strip = await within(ecg).findByRole('img', { name: /^ECG waveform/ });
    expect(Number(strip.getAttribute('data-beats-in-view'))).toBeGreaterThan(0);
    expect(within(ecg).getByRole('link', { name: 'Open the ECG analysis' })).toHaveAttribute('href', '/analyses/a-3');
    // The full details are on the analysis page, not repeated here.
    expect(within(ecg).queryByText('Additional Details')).not.toBeInTheDocument();
    // A CSV carries no device interpretation: none is shown.
    expect(within(ecg).queryByRole('region', { name: 'Device interpretation (unconfirmed)' })).not.toBeInTheDocument();

    const table = screen.getByRole('table', { name: 'Each modality of the screening' });
    expect(ecg.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(table).getByRole('link', { name: 'View result (ECG)' })).toHaveAttribute('href', '/analyses/a-3');
  });

  it("shows the ECG device's own interpretation under Cardio's result", async () => {
    const muse = makeAnalysis(
      {},
      {
        ...NORMAL_ECG.result,
        device_interpretation: {
          source: 'GE MUSE 9.0.9.18167, 12SL 241',
          statements: ['Sinus bradycardia with sinus arrhythmia with 1st degree A-V block'],
          measurements: [{ key: 'pr_ms', label: 'PRInterval', value: 330, unit: 'ms' }],
        },
      },
    );
    server({ combined: combined({}), analyses: [muse] });
    renderApp('/sensor-ecg?screening=s-1');

    const ecg = await screen.findByRole('region', { name: 'ECG result' });
    const device = await within(ecg).findByRole('region', { name: 'Device interpretation (unconfirmed)' });
    expect(within(device).getByRole('heading', { level: 3 })).toHaveTextContent('Device interpretation (unconfirmed)');
    expect(
      within(device).getByText('Sinus bradycardia with sinus arrhythmia with 1st degree A-V block'),
    ).toBeInTheDocument();
    expect(within(device).getByRole('rowheader', { name: 'PR interval' }).nextSibling).toHaveTextContent('330 ms');
    expect(within(ecg).getAllByText('Normal sinus rhythm').length).toBeGreaterThan(0);
  });

  it("sets the device's interpretation right after Cardio's own of a 12-lead file, the measurements below", async () => {
    const muse = makeAnalysis(
      {},
      {
        ...MUSE_ECG_RESULT,
        analysis_id: 'a-3',
        device_interpretation: {
          source: 'GE MUSE 9.0.9.18167, 12SL 241',
          statements: ['Sinus bradycardia with sinus arrhythmia with 1st degree A-V block'],
          measurements: [{ key: 'pr_ms', label: 'PRInterval', value: 330, unit: 'ms' }],
        },
      },
    );
    server({ combined: combined({}), analyses: [muse] });
    renderApp('/sensor-ecg?screening=s-1');

    const ecg = await screen.findByRole('region', { name: 'ECG result' });
    const cardio = await within(ecg).findByRole('region', { name: 'Computer interpretation — unconfirmed' });
    const device = within(ecg).getByRole('region', { name: 'Device interpretation (unconfirmed)' });
    const measurements = within(ecg).getByRole('region', { name: 'ECG measurements (median beat)' });
    expect(cardio.nextElementSibling).toBe(device);
    expect(device.nextElementSibling).toBe(measurements);
    expect(within(cardio).getByText('Abnormal ECG')).toBeInTheDocument();
    expect(within(measurements).getByRole('row', { name: 'PR interval 320 ms' })).toBeInTheDocument();
    expect(within(ecg).getAllByRole('region', { name: 'Device interpretation (unconfirmed)' })).toHaveLength(1);
    // The full details are on the analysis page.
    expect(within(ecg).queryByText('More details')).not.toBeInTheDocument();
  });

  it('an abnormal ECG never carries success styling', async () => {
    const abnormal = makeAnalysis({}, { label: 'af', prediction: 'Atrial fibrillation suspected', risk_score: 0.35 });
    server({ combined: combined({}), analyses: [abnormal] });
    renderApp('/sensor-ecg?screening=s-1');

    const ecg = await screen.findByRole('region', { name: 'ECG result' });
    const badge = await within(ecg).findByText(/Low Risk/);
    expect(badge).toHaveClass('badge--warning');
    expect(badge).not.toHaveClass('badge--success');
  });

  it('a low risk that rests on one modality says "based on 1 of 4" and is not green', async () => {
    server({ combined: combined({}), analyses: [NORMAL_ECG] });
    renderApp('/sensor-ecg?screening=s-1');

    const result = await screen.findByRole('region', { name: 'Combined screening result' });
    const badge = within(result).getByText(/based on/);
    expect(badge).toHaveTextContent('Low Risk · based on 1 of 4');
    expect(badge).not.toHaveClass('badge--success');
    expect(badge).toHaveClass('badge--muted');
    expect(result).toHaveTextContent(
      'Only one of the 4 modalities (ECG) could be judged: this result rests on it alone',
    );
  });

  it('a low risk judged on several modalities is green and says how many', async () => {
    const clinical = {
      status: 'performed',
      analysis_id: 'a-1',
      prediction: 'Coronary artery disease unlikely',
      risk_score: 0.2,
    } as const;
    server({ combined: combined({ clinical }), analyses: [NORMAL_ECG] });
    renderApp('/sensor-ecg?screening=s-1');

    const result = await screen.findByRole('region', { name: 'Combined screening result' });
    const badge = within(result).getByText(/based on/);
    expect(badge).toHaveTextContent('Low Risk · based on 2 of 4');
    expect(badge).toHaveClass('badge--success');
    expect(result).not.toHaveTextContent('Only one of the');
  });

  it('shows a pulse recorded after completion: the PPG row and the count follow the screening read again', async () => {
    const state = { combined: combined({}), analyses: [NORMAL_ECG] };
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/screenings/s-1': () =>
        json(200, makeScreening({ status: 'completed', clinical: makeClinicalRecord(), combined: state.combined })),
      'GET /api/analyses': () => json(200, state.analyses),
      'GET /api/analyses/a-3/waveform': (request) => json(200, makeWaveform(request, ['II'])),
      'GET /api/screenings/s-1/reviews': () => json(200, []),
      'POST /api/predict/ppg/upload': () => {
        const ppg = makeAnalysis(
          { id: 'a-4', modality: 'ppg', fileName: 'pulse.csv', createdAt: '2026-11-21T11:00:00.000Z' },
          { model: 'PPG', label: 'normal', prediction: 'Regular pulse rhythm', risk_score: 0.08 },
        );
        // The server computes the combined result on every read: from now on it includes the PPG.
        state.analyses = [ppg, ...state.analyses];
        state.combined = combined(
          {
            ppg: {
              status: 'performed',
              analysis_id: 'a-4',
              label: 'normal',
              prediction: 'Regular pulse rhythm',
              risk_score: 0.08,
            },
          },
          { combined_at: '2026-11-21T11:00:00.000Z' },
        );
        return json(200, ppg.result);
      },
    });
    renderApp('/sensor-ecg?screening=s-1');
    const user = userEvent.setup({ applyAccept: false });

    let result = await screen.findByRole('region', { name: 'Combined screening result' });
    const rows = () =>
      within(screen.getByRole('table', { name: 'Each modality of the screening' }))
        .getAllByRole('row')
        .slice(1);
    expect(rows()[2]).toHaveTextContent('PPGNot performed');
    expect(within(result).getByText(/based on/)).toHaveTextContent('based on 1 of 4');

    await user.click(within(result).getByRole('link', { name: 'Record PPG' }));
    const input = (await screen.findByText('Browse Files')).parentElement?.querySelector('input') as HTMLInputElement;
    await user.upload(input, new File(['time,PPG\n0,1\n'], 'pulse.csv', { type: 'text/csv' }));
    expect(await screen.findByText('Analysed: Regular pulse rhythm')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Continue to ECG' }));

    result = await screen.findByRole('region', { name: 'Combined screening result' });
    expect(await within(result).findByText(/based on 2 of 4/)).toHaveClass('badge--success');
    expect(rows()[2]).toHaveTextContent('PPGPerformedRegular pulse rhythm8.0%');
    expect(within(result).getByRole('link', { name: 'Record PPG again' })).toHaveAttribute(
      'href',
      '/sensor-ppg?screening=s-1',
    );
  });

  it('says when the result changed after the current sign-off', async () => {
    const review: Review = {
      id: 'r-1',
      reviewerId: 'u-1',
      reviewerName: 'Ada Lovelace',
      agreement: 'agree',
      comment: '',
      createdAt: '2026-11-21T10:20:00.000Z',
    };
    server({
      combined: combined({}, { combined_at: '2026-11-21T11:00:00.000Z' }),
      analyses: [NORMAL_ECG],
      reviews: [review],
    });
    renderApp('/sensor-ecg?screening=s-1');
    const note = await screen.findByRole('note');
    expect(note).toHaveTextContent('The result changed after this sign-off');
    expect(screen.getByRole('radio', { name: 'Agree' })).not.toBeChecked();
    expect(screen.getByRole('radio', { name: 'Disagree' })).not.toBeChecked();
  });

  it('Analyze another ECG opens the form again and comes back to the result', async () => {
    const fake = server({ combined: combined({}), analyses: [NORMAL_ECG] });
    renderApp('/sensor-ecg?screening=s-1');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Analyze another ECG' }));
    expect(screen.getByRole('button', { name: 'Analyze ECG Data' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back to the result' }));
    expect(await screen.findByRole('region', { name: 'Combined screening result' })).toBeInTheDocument();
    expect(requestsTo(fake, 'POST', '/api/screenings/s-1/combine')).toHaveLength(0);
  });
});
