import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PredictionResult } from '../api/client';
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

  it('collapses a long list of windows behind its count and leaves a short one open', () => {
    render(<PredictionResultView result={result({ window_results: windows(48), gate: [{ a: 1 }, { a: 2 }] })} />);
    const long = screen.getByText('48 items').closest('details') as HTMLElement;
    expect(long).not.toHaveAttribute('open');
    expect(within(long).getAllByRole('listitem', { hidden: true }).length).toBeGreaterThanOrEqual(48);
    const gate = screen.getByText('gate:').closest('li') as HTMLElement;
    expect(gate.querySelector('details')).toBeNull();
    expect(gate).toHaveTextContent('a: 2');
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
  });
});
