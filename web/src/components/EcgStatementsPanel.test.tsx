import { act, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import i18n from '../i18n';
import { ecg12Details, type Ecg12Details } from '../lib/ecg12';
import { MUSE_ECG_RESULT, ONE_LEAD_ECG_RESULT, SIX_LEAD_ECG_RESULT } from '../test/ecg12Results';
import { EcgStatementsPanel } from './EcgStatementsPanel';

function ecg(details: unknown): Ecg12Details {
  const read = ecg12Details(details);
  if (!read) throw new Error('no measurements');
  return read;
}

/** Each statement of the list as its lines: text, values, criterion. */
function statements(): string[][] {
  return screen
    .getAllByRole('listitem')
    .map((item) => Array.from(item.querySelectorAll('p')).map((line) => line.textContent ?? ''));
}

function summary(panel: HTMLElement): string[] {
  const box = panel.querySelector('.ecg-statements__summary');
  return box ? Array.from(box.querySelectorAll('p')).map((line) => line.textContent ?? '') : [];
}

afterEach(async () => {
  await act(() => i18n.changeLanguage('en'));
});

describe('EcgStatementsPanel', () => {
  it("states the MUSE example's category once, then each statement with its values and criterion", () => {
    render(<EcgStatementsPanel ecg={ecg(MUSE_ECG_RESULT.details)} />);
    const panel = screen.getByRole('region', { name: 'Computer interpretation — unconfirmed' });
    expect(summary(panel)).toEqual([
      'Abnormal ECG',
      'Based on: 1st-degree AV block',
      'Criterion: at least one abnormal statement',
    ]);
    expect(panel.querySelector('.ecg-statements__summary--abnormal')).not.toBeNull();
    expect(statements()).toEqual([
      [
        'Sinus bradycardia',
        'Values: sinus rhythm, rate 57 bpm < 60 bpm',
        'Criterion: sinus rhythm at a rate below 60 bpm',
      ],
      [
        'Sinus arrhythmia',
        'Values: RR range 198 ms > 120 ms',
        'Criterion: sinus rhythm whose RR of the dominant beats varies by more than 120 ms',
      ],
      ['1st-degree AV block', 'Values: PR 320 ms > 200 ms', 'Criterion: PR > 200 ms with a P wave before every QRS'],
      ['Left atrial abnormality', 'Values: P 172 ms >= 120 ms', 'Criterion: P duration >= 120 ms'],
    ]);
    // The summary is not repeated among the statements.
    expect(within(panel).getAllByText('Abnormal ECG')).toHaveLength(1);
  });

  it('shows a borderline 6-lead ECG in the borderline colours', () => {
    render(<EcgStatementsPanel ecg={ecg(SIX_LEAD_ECG_RESULT.details)} />);
    const panel = screen.getByRole('region', { name: 'Computer interpretation — unconfirmed' });
    expect(panel.querySelector('.ecg-statements__summary--borderline')).not.toBeNull();
    expect(summary(panel)).toEqual([
      'Borderline ECG',
      'Based on: Left atrial abnormality',
      'Criterion: a borderline statement and no abnormal one',
    ]);
    expect(statements().map((lines) => lines[0])).toEqual(['Sinus rhythm', 'Left atrial abnormality']);
  });

  it('says that a single-lead record gets no statements, and why', () => {
    render(<EcgStatementsPanel ecg={ecg(ONE_LEAD_ECG_RESULT.details)} />);
    const panel = screen.getByRole('region', { name: 'Computer interpretation — unconfirmed' });
    expect(summary(panel)).toEqual([]);
    expect(screen.queryAllByRole('listitem')).toHaveLength(0);
    expect(panel).toHaveTextContent(
      "Interpretation statements: need at least 3 leads; the rhythm is the single-lead model's",
    );
  });

  it('says so in its own words when a two-lead record carries no reason', () => {
    const details = {
      ...(ONE_LEAD_ECG_RESULT.details as Record<string, unknown>),
      not_measured: [],
      leads_used: ['I', 'II'],
    };
    render(<EcgStatementsPanel ecg={ecg(details)} />);
    expect(screen.getByText('No statements: the interpretation needs at least 3 leads.')).toBeInTheDocument();
  });

  it('is in Spanish for a Spanish reader: heading, category, statements, values and criteria', async () => {
    await act(() => i18n.changeLanguage('es'));
    render(<EcgStatementsPanel ecg={ecg(MUSE_ECG_RESULT.details)} />);
    const panel = screen.getByRole('region', { name: 'Interpretación por computadora — sin confirmar' });
    expect(summary(panel)).toEqual([
      'ECG anormal',
      'Basado en: Bloqueo AV de primer grado',
      'Criterio: al menos un hallazgo anormal',
    ]);
    expect(statements()[2]).toEqual([
      'Bloqueo AV de primer grado',
      'Valores: PR de 320 ms > 200 ms',
      'Criterio: PR > 200 ms con una onda P antes de cada QRS',
    ]);
  });

  it('is in French for a French reader, the few-leads sentence included', async () => {
    await act(() => i18n.changeLanguage('fr'));
    render(<EcgStatementsPanel ecg={ecg(ONE_LEAD_ECG_RESULT.details)} />);
    const panel = screen.getByRole('region', { name: 'Interprétation informatique — non confirmée' });
    expect(panel).toHaveTextContent(
      "Conclusions de l'interprétation : il faut au moins 3 dérivations ; le rythme est celui du modèle à une seule dérivation",
    );
  });
});
