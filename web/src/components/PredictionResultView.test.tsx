import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import i18n from '../i18n';
import type { PredictionResult } from '../api/client';
import { MUSE_ECG_RESULT } from '../test/ecg12Results';
import { PredictionResultView } from './PredictionResultView';

const windows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ start_s: i * 10, end_s: i * 10 + 10, label: 'normal', af_probability: 0.01 }));

function result(details: Record<string, unknown>): PredictionResult {
  return {
    analysis_id: 'a-1',
    confidence: 0.9,
    details,
    label: 'normal',
    model: 'Clinical',
    prediction: 'Regular pulse rhythm',
    recommendations: [],
    risk_score: 0.1,
  };
}

describe('PredictionResultView: additional details', () => {
  it('shows whole numbers as whole numbers and other numbers with two decimals', () => {
    render(<PredictionResultView result={result({ cycles: 16, heart_rate_bpm: 72.456, quality: 0.5 })} />);
    const details = screen.getByRole('heading', { name: 'Additional Details' }).closest('section') as HTMLElement;
    expect(details).toHaveTextContent('cycles: 16');
    expect(details).not.toHaveTextContent('16.00');
    expect(details).toHaveTextContent('heart rate bpm: 72.46');
    expect(details).toHaveTextContent('quality: 0.50');
  });

  it('shows no risk score for a result that could not be judged, and the score of one that was', () => {
    const unsure = {
      ...result({}),
      model: 'PCG',
      label: 'unsure',
      prediction: 'Unsure: this recording cannot be judged',
      confidence: 1,
      risk_score: 0.753,
    };
    const { unmount } = render(<PredictionResultView result={unsure} />);
    const risk = () => screen.getByText('Risk Score').nextElementSibling as HTMLElement;
    expect(risk()).toHaveTextContent('—');
    expect(screen.queryByText('75.3%')).toBeNull();
    unmount();
    render(
      <PredictionResultView result={{ ...unsure, label: 'abnormal', prediction: 'Abnormal heart sounds suspected' }} />,
    );
    expect(risk()).toHaveTextContent('75.3%');
  });

  it('collapses a long list of windows behind its count and leaves a short one open', () => {
    render(<PredictionResultView result={result({ window_results: windows(48), gate: [{ a: 1 }, { a: 2 }] })} />);
    const long = screen.getByText('48 items').closest('details') as HTMLElement;
    expect(long).not.toHaveAttribute('open');
    expect(within(long).getAllByRole('listitem', { hidden: true }).length).toBeGreaterThanOrEqual(48);
    const gate = screen.getByText('gate:').closest('li') as HTMLElement;
    expect(gate.querySelector('details')).toBeNull();
    expect(gate).toHaveTextContent('a: 2');
  });

  it('shows a recording read whole as its episodes table, not as raw details, unless the page shows the table', () => {
    const long = {
      ...result({
        heart_rate_bpm: 71,
        analysed_s: 1805,
        noisy_s: 30,
        af_burden: 0.37,
        window_s: 30,
        episodes: [
          { kind: 'noisy', start_s: 60, end_s: 90 },
          { kind: 'af', start_s: 1140, end_s: 1805 },
        ],
      }),
      model: 'ECG',
      label: 'af',
    };
    const { unmount } = render(<PredictionResultView result={long} />);
    expect(screen.getByTestId('record-summary')).toHaveTextContent(
      '30 min 5 s analysed · AF burden 37% · 1 AF episode of 11 min 5 s · 30 s too noisy to read',
    );
    expect(screen.queryByRole('button', { name: /^Show/ })).not.toBeInTheDocument();
    const details = screen.getByRole('heading', { name: 'Additional Details' }).closest('section') as HTMLElement;
    expect(details).toHaveTextContent('heart rate bpm: 71');
    expect(details).not.toHaveTextContent('episodes');
    expect(details).not.toHaveTextContent('AF burden');
    unmount();
    render(<PredictionResultView result={long} episodes={false} />);
    expect(screen.queryByTestId('record-summary')).not.toBeInTheDocument();
  });

  it("reads the clinical model's columns as ranked factors and keeps them out of the details list", () => {
    render(
      <PredictionResultView
        result={result({
          submodel: 'full',
          contributions: [
            { feature: 'age', value: 0.3 },
            { feature: 'chest_pain_atypical_angina', value: -0.2 },
            { feature: 'chest_pain_asymptomatic', value: 1.0 },
            { feature: 'cholesterol', value: 0.01 },
            { feature: 'thalassemia_reversible_defect', value: -0.6 },
          ],
          attributes_used: ['age', 'chest_pain_type', 'cholesterol', 'thalassemia', 'sex'],
          attributes_missing: ['st_slope'],
          sex_source: 'patient_record',
        })}
      />,
    );
    const factors = screen.getByRole('heading', { name: 'Main factors' }).closest('section') as HTMLElement;
    expect(
      within(factors)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Chest Pain Typeraises the estimate', 'Thalassemialowers the estimate', 'Ageraises the estimate']);
    const details = screen.getByRole('heading', { name: 'Additional Details' }).closest('section') as HTMLElement;
    expect(details).toHaveTextContent('submodel: full');
    expect(details).not.toHaveTextContent('contributions');
    expect(details).not.toHaveTextContent('chest pain asymptomatic');
    expect(factors).toHaveTextContent(
      'Computed from: Age, Chest Pain Type, Cholesterol (mg/dl), Thalassemia, Sex. Sex from the patient record.',
    );
    expect(factors).toHaveTextContent('Not given (the model does without them): Slope of Peak Exercise ST Segment.');
    expect(details).not.toHaveTextContent('attributes');
    expect(details).not.toHaveTextContent('patient_record');
  });
});

describe("PredictionResultView: the models' words in the reader's language", () => {
  it('shows the finding, the recommendations and the detail labels in Spanish, and again in English', async () => {
    const ecg: PredictionResult = {
      analysis_id: 'a-2',
      confidence: 0.8,
      details: {
        heart_rate_bpm: 96,
        quality_usable: true,
        quality: 'usable: beats match their average shape (correlation 0.97)',
      },
      label: 'af',
      model: 'ECG',
      prediction: 'Atrial fibrillation suspected',
      recommendations: ['English sentence 1.', 'English sentence 2.'],
      advice: [
        { code: 'ecg.af_1', params: {} },
        { code: 'disclaimer', params: {} },
      ],
      risk_score: 0.8,
    };
    await act(() => i18n.changeLanguage('es'));
    render(<PredictionResultView result={ecg} />);
    expect(screen.getByText('Sospecha de fibrilación auricular')).toBeInTheDocument();
    const list = screen.getByRole('heading', { name: 'Recomendaciones clínicas' }).nextElementSibling as HTMLElement;
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Se sospecha fibrilación auricular: organice una revisión clínica con un ECG de 12 derivaciones en unos días para confirmarla o descartarla.',
      'Esta es una estimación de cribado de un modelo estadístico, no un diagnóstico; no sustituye el juicio clínico.',
    ]);
    expect(screen.getByText('frecuencia cardíaca lpm:')).toBeInTheDocument();
    expect(screen.getByText('calidad utilizable:').parentElement).toHaveTextContent('calidad utilizable: sí');
    expect(screen.getByText('calidad:').parentElement).toHaveTextContent(
      'calidad: utilizable: los latidos coinciden con su forma media (correlación 0.97)',
    );
    expect(screen.queryByText(/English sentence/)).not.toBeInTheDocument();

    await act(() => i18n.changeLanguage('en'));
    expect(screen.getByText('Atrial fibrillation suspected')).toBeInTheDocument();
    expect(screen.getByText('heart rate bpm:')).toBeInTheDocument();
  });
});

describe('PredictionResultView: an ECG read from named leads', () => {
  it('shows the measurements and the unconfirmed interpretation, the other details behind "More details"', async () => {
    const user = userEvent.setup();
    render(<PredictionResultView result={MUSE_ECG_RESULT} />);
    expect(screen.getByText('Normal sinus rhythm')).toBeInTheDocument();
    const measurements = screen.getByRole('region', { name: 'ECG measurements (median beat)' });
    expect(within(measurements).getByRole('row', { name: 'PR interval 320 ms' })).toBeInTheDocument();
    expect(within(measurements).getByRole('row', { name: 'Leads 12 leads' })).toBeInTheDocument();
    const statements = screen.getByRole('region', { name: 'Computer interpretation — unconfirmed' });
    expect(within(statements).getByText('Abnormal ECG')).toBeInTheDocument();
    expect(within(statements).getByText('1st-degree AV block')).toBeInTheDocument();
    expect(within(statements).getByText('Values: PR 320 ms > 200 ms')).toBeInTheDocument();

    // No raw list of every key: the rest folded, closed, and none of the keys the panels show.
    expect(screen.queryByRole('heading', { name: 'Additional Details' })).not.toBeInTheDocument();
    const summary = screen.getByText('More details');
    const more = summary.closest('details') as HTMLElement;
    expect(more).not.toHaveAttribute('open');
    expect(more).toHaveTextContent('beats used: 7');
    expect(more).toHaveTextContent('beats excluded: 2');
    expect(more).toHaveTextContent('Rhythm decided by: the 12-lead statements (P waves read across the leads)');
    expect(more).not.toHaveTextContent('twelve_lead_statements');
    for (const shown of [
      'measurements:',
      'interpretation statements:',
      'interpretation status',
      'interpretation category',
      'leads used',
      'leads missing',
      'not measured:',
    ]) {
      expect(more).not.toHaveTextContent(shown);
    }

    // The disclosure's summary is reached with Tab (a browser opens it with Enter or Space; jsdom
    // only with a click).
    await user.tab();
    while (document.activeElement !== summary && document.activeElement !== document.body) await user.tab();
    expect(summary).toHaveFocus();
    await user.click(summary);
    expect(more).toHaveAttribute('open');
  });

  it("shows the device's interpretation, when given, right after Cardio's own", () => {
    const device = { source: 'GE MUSE 9.0.9.18167, 12SL 241', statements: ['Otherwise normal ECG'], measurements: [] };
    render(<PredictionResultView result={MUSE_ECG_RESULT} device={device} />);
    const cardio = screen.getByRole('region', { name: 'Computer interpretation — unconfirmed' });
    const panel = screen.getByRole('region', { name: 'Device interpretation (unconfirmed)' });
    expect(cardio.nextElementSibling).toBe(panel);
    expect(within(panel).getByText('Otherwise normal ECG')).toBeInTheDocument();
  });

  it('leaves "More details" out where the page links to the full result', () => {
    render(<PredictionResultView result={MUSE_ECG_RESULT} details={false} />);
    expect(screen.getByRole('region', { name: 'Computer interpretation — unconfirmed' })).toBeInTheDocument();
    expect(screen.queryByText('More details')).not.toBeInTheDocument();
  });

  it('is in Spanish for a Spanish reader', async () => {
    await act(() => i18n.changeLanguage('es'));
    render(<PredictionResultView result={MUSE_ECG_RESULT} />);
    const statements = screen.getByRole('region', { name: 'Interpretación por computadora — sin confirmar' });
    expect(within(statements).getByText('Bloqueo AV de primer grado')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Mediciones del ECG (latido mediano)' })).toHaveTextContent(
      'QTc (Bazett)433 ms',
    );
    expect(screen.getByText('Más detalles')).toBeInTheDocument();
    expect(screen.getByText('Más detalles').closest('details')).toHaveTextContent(
      'Ritmo decidido por: los enunciados de 12 derivaciones (ondas P leídas en todas las derivaciones)',
    );
    await act(() => i18n.changeLanguage('en'));
  });

  it('shows an ECG result without measurements as before', () => {
    const old = { ...MUSE_ECG_RESULT, details: { heart_rate_bpm: 57, beats: 9 } };
    render(<PredictionResultView result={old} />);
    expect(screen.getByRole('heading', { name: 'Additional Details' })).toBeInTheDocument();
    expect(screen.queryByText('More details')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Computer interpretation — unconfirmed' })).not.toBeInTheDocument();
  });
});
