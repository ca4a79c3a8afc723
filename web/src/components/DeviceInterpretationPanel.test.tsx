import { act, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import i18n from '../i18n';
import type { DeviceInterpretation } from '../api/client';
import { DeviceInterpretationPanel } from './DeviceInterpretationPanel';

/** What the GE MUSE example's 12SL reading gives. */
const MUSE: DeviceInterpretation = {
  source: 'GE MUSE 9.0.9.18167, 12SL 241',
  statements: ['Sinus bradycardia with sinus arrhythmia with 1st degree A-V block', 'Otherwise normal ECG'],
  measurements: [
    { key: 'heart_rate_bpm', label: 'VentricularRate', value: 56, unit: 'bpm' },
    { key: 'pr_ms', label: 'PRInterval', value: 330, unit: 'ms' },
    { key: 'qrs_ms', label: 'QRSDuration', value: 94, unit: 'ms' },
    { key: 'qtc_ms', label: 'QTCorrected', value: 418, unit: 'ms' },
    { key: 'qrs_axis_deg', label: 'RAxis', value: -22, unit: '°' },
    { key: 'st_j_uv', label: 'ST J-point', value: 12.5, unit: 'µV' },
  ],
};

/** The table's rows as "name | value". */
function rows(panel: HTMLElement): string[] {
  return within(panel)
    .getAllByRole('row')
    .slice(1)
    .map((row) => {
      const header = within(row).getByRole('rowheader').textContent;
      const cell = within(row).getByRole('cell').textContent;
      return `${header} | ${cell}`;
    });
}

afterEach(async () => {
  await act(() => i18n.changeLanguage('en'));
});

describe('DeviceInterpretationPanel', () => {
  it("shows the device's source, its statements as written and its measurements under translated names", () => {
    render(<DeviceInterpretationPanel device={MUSE} />);

    const panel = screen.getByRole('region', { name: 'Device interpretation (unconfirmed)' });
    expect(
      within(panel).getByText(
        "What the recording device itself wrote, in its own words: not confirmed by a doctor and not part of Cardio's result.",
      ),
    ).toBeInTheDocument();
    expect(within(panel).getByText('Source').nextSibling).toHaveTextContent('GE MUSE 9.0.9.18167, 12SL 241');
    const statements = within(panel).getByRole('list', { name: 'Statements' });
    expect(
      within(statements)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Sinus bradycardia with sinus arrhythmia with 1st degree A-V block', 'Otherwise normal ECG']);
    expect(within(panel).getByRole('table', { name: 'Measurements' })).toBeInTheDocument();
    expect(within(panel).getByRole('columnheader', { name: 'Measurement' })).toBeInTheDocument();
    expect(rows(panel)).toEqual([
      'Heart rate | 56 bpm',
      'PR interval | 330 ms',
      'QRS duration | 94 ms',
      'QTc | 418 ms',
      'QRS axis | -22°',
      'ST J-point | 12.5 µV',
    ]);
  });

  it('is in Spanish for a Spanish user, with the statements still in the words of the device', async () => {
    await act(() => i18n.changeLanguage('es'));
    render(<DeviceInterpretationPanel device={MUSE} />);

    const panel = screen.getByRole('region', { name: 'Interpretación del dispositivo (sin confirmar)' });
    expect(
      within(panel).getByText(
        'Lo que escribió el propio dispositivo de registro, con sus palabras: no está confirmado por un médico y no forma parte del resultado de Cardio.',
      ),
    ).toBeInTheDocument();
    expect(within(panel).getByText('Origen').nextSibling).toHaveTextContent('GE MUSE 9.0.9.18167, 12SL 241');
    const statements = within(panel).getByRole('list', { name: 'Afirmaciones' });
    expect(within(statements).getAllByRole('listitem')[0]).toHaveTextContent(
      'Sinus bradycardia with sinus arrhythmia with 1st degree A-V block',
    );
    expect(within(panel).getByRole('table', { name: 'Mediciones' })).toBeInTheDocument();
    expect(rows(panel)).toEqual([
      'Frecuencia cardíaca | 56 bpm',
      'Intervalo PR | 330 ms',
      'Duración del QRS | 94 ms',
      'QTc | 418 ms',
      'Eje QRS | -22°',
      'ST J-point | 12,5 µV',
    ]);
  });

  it('shows nothing when the file carried no interpretation', () => {
    const { container } = render(<DeviceInterpretationPanel device={undefined} />);
    expect(container).toBeEmptyDOMElement();
    render(<DeviceInterpretationPanel device={null} />);
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
    expect(screen.queryByText('Device interpretation (unconfirmed)')).not.toBeInTheDocument();
  });

  it('leaves out the statements or the measurements the device did not give', () => {
    render(
      <DeviceInterpretationPanel
        device={{ source: 'AliveCor KardiaMobile', statements: ['Normal'], measurements: [] }}
      />,
    );
    const panel = screen.getByRole('region', { name: 'Device interpretation (unconfirmed)' });
    expect(within(panel).getByRole('listitem')).toHaveTextContent('Normal');
    expect(within(panel).queryByRole('table')).not.toBeInTheDocument();
  });
});
