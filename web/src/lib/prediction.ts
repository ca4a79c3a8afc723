/**
 * Formatting rules of a prediction result (spec §2 "Results modal", §9) and the error texts of a
 * failed prediction (spec §8 "Backend predictions").
 */
import i18n, { type TFunction } from 'i18next';
import { ApiError, NetworkError } from '../api/client';
import { serverErrorText } from './apiErrors';

/** The four models of spec §7. */
export type ModelKind = 'clinical' | 'ecg' | 'pcg' | 'ppg';

/**
 * The name a model is shown under, in the reader's language (the models' catalogue,
 * `content.modalities`: "Clinical", "Clínico", "Clinique"); an unknown kind as it is.
 */
export function modelName(kind: string): string {
  const key = `content.modalities.${kind}`;
  return i18n.exists(key) ? String(i18n.t(key as never)) : kind;
}

/** Spec §9: above 0.7 high, above 0.4 up to and including 0.7 moderate, else low. */
export type RiskLevel = 'high' | 'moderate' | 'low';

export function riskLevel(riskScore: number): RiskLevel {
  if (riskScore > 0.7) return 'high';
  if (riskScore > 0.4) return 'moderate';
  return 'low';
}

/**
 * What a model's label says, as the server's reports read it: `normal` (nothing found), `abnormal`
 * (something to act on: AF, another rhythm, an irregular pulse, abnormal heart sounds, disease) or
 * `inconclusive` (the recording could not be judged).
 */
export type Finding = 'normal' | 'abnormal' | 'inconclusive';

const NORMAL_LABELS = new Set(['normal', 'no_disease']);
const INCONCLUSIVE_LABELS = new Set(['unsure', 'noisy']);

export function findingOf(label: string): Finding {
  if (NORMAL_LABELS.has(label)) return 'normal';
  if (INCONCLUSIVE_LABELS.has(label)) return 'inconclusive';
  return 'abnormal';
}

/** The colour family of a badge or a result line. */
export type Tone = 'success' | 'warning' | 'danger' | 'neutral';

/** The badge class of each tone. */
export const TONE_BADGES = {
  success: 'badge--success',
  warning: 'badge--warning',
  danger: 'badge--danger',
  neutral: 'badge--muted',
} as const satisfies Record<Tone, string>;

/** Spec §9 colours of each band. */
const LEVEL_TONES = { high: 'danger', moderate: 'warning', low: 'success' } as const satisfies Record<RiskLevel, Tone>;

/**
 * The badge of one model's result. The band comes from the risk score (spec §9), but the colour never
 * says "fine" when the label does not: an abnormal finding with a low score is shown as a warning,
 * and a recording that could not be judged gets a neutral "Inconclusive" badge instead of a band.
 */
export function resultBadge(label: string, riskScore: number): { level: RiskLevel | 'inconclusive'; tone: Tone } {
  const finding = findingOf(label);
  if (finding === 'inconclusive') return { level: 'inconclusive', tone: 'neutral' };
  const level = riskLevel(riskScore);
  const tone = LEVEL_TONES[level];
  return { level, tone: finding === 'abnormal' && tone === 'success' ? 'warning' : tone };
}

/**
 * The badge of a screening's combined result: the band of its risk score, but a low risk that rests
 * on a single modality is shown in a neutral (limited) colour, never a plain green "Low Risk".
 */
export function combinedBadge(combined: { risk_score: number; based_on: number }): { level: RiskLevel; tone: Tone } {
  const level = riskLevel(combined.risk_score);
  const tone = LEVEL_TONES[level];
  return { level, tone: tone === 'success' && combined.based_on <= 1 ? 'neutral' : tone };
}

/** Spec §9: a 0-1 value shown times 100 with one decimal, e.g. "87.3%". */
export function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

/** A result's risk score as a percentage, or "—" for a result that could not be judged (it has no risk). */
export function riskPercent(label: string, risk: number): string {
  return findingOf(label) === 'inconclusive' ? '—' : percent(risk);
}

/** Spec §2: detail keys with underscores shown as spaces (in the reader's language where the catalogue has them). */
export function detailLabel(key: string): string {
  const translated = `results.detailLabels.${key}`;
  return i18n.exists(translated) ? String(i18n.t(translated as never)) : key.replaceAll('_', ' ');
}

/**
 * Spec §9: detail numbers with 2 decimals, except whole numbers (counts such as "cycles: 16"),
 * which are shown as they are; yes/no in the reader's language; other scalars as text.
 */
export function detailValue(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(2);
  if (typeof value === 'boolean') return String(i18n.t(value ? 'results.yes' : 'results.no'));
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
      return t('predictionErrors.validation', {
        detail: serverErrorText(error, t('predictionErrors.invalidInput'), t),
      });
    }
    if (error.status === 503) return t('predictionErrors.modelNotLoaded');
    if (error.status === 500) return serverErrorText(error, t('predictionErrors.server'), t);
    return serverErrorText(error, t(CALL_DEFAULT[kind]), t);
  }
  return t(CALL_DEFAULT[kind]);
}
