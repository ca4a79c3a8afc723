import { act, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import i18n from '../i18n';
import { ecg12Details, type Ecg12Details } from '../lib/ecg12';
import { MUSE_ECG_RESULT, ONE_LEAD_ECG_RESULT, SIX_LEAD_ECG_RESULT } from '../test/ecg12Results';
import { EcgMeasurementsPanel } from './EcgMeasurementsPanel';

function ecg(details: unknown): Ecg12Details {
  const read = ecg12Details(details);
  if (!read) throw new Error('no measurements');
  return read;
}

/** The table's rows as "name | value". */
function rows(): string[] {
  const table = screen.getByRole('table');
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => `${within(row).getByRole('rowheader').textContent} | ${within(row).getByRole('cell').textContent}`);
}

afterEach(async () => {
  await act(() => i18n.changeLanguage('en'));
});

describe('EcgMeasurementsPanel', () => {
  it("prints the MUSE example's measurements as a cart does, QTc with its formula and the others below", () => {
    render(<EcgMeasurementsPanel ecg={ecg(MUSE_ECG_RESULT.details)} />);
    expect(screen.getByRole('heading', { name: 'ECG measurements (median beat)' })).toBeInTheDocument();
    expect(rows()).toEqual([
      'Rate | 57 bpm',
      'RR interval | 1062 ms',
      'P duration | 172 ms',
      'PR interval | 320 ms',
      'QRS duration | 104 ms',
      'QT interval | 446 ms',
      'QTc (Bazett) | 433 msOther formulas: Fridericia 437 ms · Framingham 437 ms · Hodges 440 ms',
      'P / QRS / T axes | -40° / -25° / 6°',
      'Sokolow-Lyon (SV1 + RV5/V6) | 1.52 mV',
      'Cornell (RaVL + SV3) | 1.31 mV',
      'Leads | 12 leads',
    ]);
  });

  it('says why a value of a single-lead record is missing, and names its lead', () => {
    render(<EcgMeasurementsPanel ecg={ecg(ONE_LEAD_ECG_RESULT.details)} />);
    const all = rows();
    expect(all).toContain('P / QRS / T axes | Not measured: need two limb leads that are not opposite');
    expect(all).toContain('Sokolow-Lyon (SV1 + RV5/V6) | Not measured: needs V1 and V5 or V6');
    expect(all).toContain('Cornell (RaVL + SV3) | Not measured: needs aVL and V3');
    expect(all).toContain('PR interval | 203 ms');
    expect(all.at(-1)).toBe('Leads | 1 lead: I');
  });

  it('names the six limb leads of a 6-lead record', () => {
    render(<EcgMeasurementsPanel ecg={ecg(SIX_LEAD_ECG_RESULT.details)} />);
    expect(rows().at(-1)).toBe('Leads | 6 leads: I, II, III, aVR, aVL, aVF');
    expect(rows()).toContain('P / QRS / T axes | 59° / 63° / 25°');
  });

  it('shows a dash for a value missing without a reason, and one axis missing among the three', () => {
    const details = {
      ...(MUSE_ECG_RESULT.details as Record<string, unknown>),
      measurements: { heart_rate_bpm: 60, qt_ms: null, p_axis_deg: null, qrs_axis_deg: 10, t_axis_deg: 20 },
      not_measured: ['pr_ms, p_ms: no P wave found in the median beat'],
      leads_used: [],
    };
    render(<EcgMeasurementsPanel ecg={ecg(details)} />);
    const all = rows();
    expect(all).toContain('QT interval | —');
    expect(all).toContain('PR interval | Not measured: no P wave found in the median beat');
    expect(all).toContain('P / QRS / T axes | — / 10° / 20°');
    expect(all).toContain('QTc (Bazett) | —');
    expect(all.some((row) => row.startsWith('Leads'))).toBe(false);
  });

  it('is in Spanish for a Spanish reader, the reasons translated by the catalogue', async () => {
    await act(() => i18n.changeLanguage('es'));
    render(<EcgMeasurementsPanel ecg={ecg(SIX_LEAD_ECG_RESULT.details)} />);
    expect(screen.getByRole('heading', { name: 'Mediciones del ECG (latido mediano)' })).toBeInTheDocument();
    const all = rows();
    expect(all[0]).toBe('Frecuencia | 87 lpm');
    expect(all).toContain('Cornell (RaVL + SV3) | No medido: se necesitan aVL y V3');
    expect(all).toContain('QTc (Bazett) | 406 msOtras fórmulas: Fridericia 381 ms · Framingham 385 ms · Hodges 384 ms');
    expect(all.at(-1)).toBe('Derivaciones | 6 derivaciones: I, II, III, aVR, aVL, aVF');
  });
});
