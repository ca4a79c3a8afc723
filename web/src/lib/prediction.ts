/**
 * Formatting rules of a prediction result (spec §2 "Results modal", §9) and the error texts of a
 * failed prediction (spec §8 "Backend predictions").
 */
import type { TFunction } from 'i18next';
import { ApiError, NetworkError } from '../api/client';

/** The four models of spec §7. */
export type ModelKind = 'clinical' | 'ecg' | 'pcg' | 'ppg';

/** The name each model is shown under (the server's `model` field uses the same). */
export const MODEL_NAMES = { clinical: 'Clinical', ecg: 'ECG', pcg: 'PCG', ppg: 'PPG' } as const satisfies Record<
  ModelKind,
  string
>;

/** Spec §9: high red, moderate yellow, low green. */
export const RISK_BADGES = { high: 'badge--danger', moderate: 'badge--warning', low: 'badge--success' } as const;

/** Spec §9: above 0.7 high, above 0.4 up to and including 0.7 moderate, else low. */
export type RiskLevel = 'high' | 'moderate' | 'low';

export function riskLevel(riskScore: number): RiskLevel {
  if (riskScore > 0.7) return 'high';
  if (riskScore > 0.4) return 'moderate';
  return 'low';
}

/** Spec §9: a 0-1 value shown times 100 with one decimal, e.g. "87.3%". */
export function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

/** Spec §2: detail keys with underscores shown as spaces. */
export function detailLabel(key: string): string {
  return key.replaceAll('_', ' ');
}

/** Spec §9: detail numbers with 2 decimals; other scalars as text. */
export function detailValue(value: unknown): string {
  if (typeof value === 'number') return value.toFixed(2);
  if (value === null || value === undefined) return '—';
  return String(value);
}

/** Spec §8: the per-call defaults. */
const CALL_DEFAULT = {
  clinical: 'predictionErrors.clinical',
  ecg: 'predictionErrors.ecg',
  pcg: 'predictionErrors.pcg',
  ppg: 'predictionErrors.ppg',
} as const satisfies Record<ModelKind, string>;

/** Spec §8: the text shown for a failed prediction call. */
export function predictionErrorMessage(error: unknown, kind: ModelKind, t: TFunction): string {
  if (error instanceof NetworkError) return t('predictionErrors.noResponse');
  if (error instanceof ApiError) {
    if (error.status === 422) {
      return t('predictionErrors.validation', { detail: error.detail ?? t('predictionErrors.invalidInput') });
    }
    if (error.status === 503) return t('predictionErrors.modelNotLoaded');
    if (error.status === 500) return error.detail ?? t('predictionErrors.server');
    return error.detail ?? t(CALL_DEFAULT[kind]);
  }
  return t(CALL_DEFAULT[kind]);
}
