/**
 * The 12-lead interpretation an ECG result's `details` carry when the file names its leads:
 * `measurements` (median-beat intervals, axes, voltages), `statements` (each with the criterion and
 * the values that fired it), `interpretation_category`, `leads_used` and `not_measured` (why a
 * value is missing). The server writes every sentence in English; they are shown through the
 * models' catalogue (`reasonText`).
 */
import { reasonText } from './clinicalText';

/** One statement as the server writes it. */
export interface Ecg12Statement {
  code: string;
  text: string;
  criterion: string;
  values: string;
}

export type Ecg12Category = 'normal' | 'borderline' | 'abnormal';

/** The measurements, whole ms, bpm and degrees, voltages in mV to 0.01; null when not measured. */
export type Ecg12Measurements = Record<string, number | string | null>;

/** The parts of a result's details the measurements and statements panels read. */
export interface Ecg12Details {
  measurements: Ecg12Measurements;
  statements: Ecg12Statement[];
  category: Ecg12Category | null;
  leadsUsed: string[];
  notMeasured: string[];
}

/** The details keys the two panels show (kept out of the result's remaining details). */
export const ECG12_PANEL_KEYS = [
  'measurements',
  'statements',
  'interpretation_status',
  'interpretation_category',
  'leads_used',
  'leads_missing',
  'not_measured',
] as const;

/** The 12 standard leads in the order the carts print them. */
export const STANDARD_LEADS = ['I', 'II', 'III', 'aVR', 'aVL', 'aVF', 'V1', 'V2', 'V3', 'V4', 'V5', 'V6'] as const;

/** The codes of the overall statement, one per category. */
export const CATEGORY_CODES = {
  normal: 'normal_ecg',
  borderline: 'borderline_ecg',
  abnormal: 'abnormal_ecg',
} as const satisfies Record<Ecg12Category, string>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function isStatement(value: unknown): value is Ecg12Statement {
  return (
    isRecord(value) &&
    typeof value.code === 'string' &&
    typeof value.text === 'string' &&
    typeof value.criterion === 'string' &&
    typeof value.values === 'string'
  );
}

/** The 12-lead interpretation of `details`, or null when they carry no `measurements`. */
export function ecg12Details(details: unknown): Ecg12Details | null {
  if (!isRecord(details) || !isRecord(details.measurements)) return null;
  const measurements: Ecg12Measurements = {};
  for (const [key, value] of Object.entries(details.measurements)) {
    measurements[key] = typeof value === 'number' || typeof value === 'string' ? value : null;
  }
  const category = details.interpretation_category;
  return {
    measurements,
    statements: Array.isArray(details.statements) ? details.statements.filter(isStatement) : [],
    category: category === 'normal' || category === 'borderline' || category === 'abnormal' ? category : null,
    leadsUsed: strings(details.leads_used),
    notMeasured: strings(details.not_measured),
  };
}

/**
 * The subject of a `not_measured` sentence ("qrs_axis_deg, p_axis_deg: need ..."): the keys it
 * names (`qtc` stands for every QTc formula) and the sentence, translated, with and without them.
 */
export interface NotMeasured {
  keys: string[];
  /** The reason alone in the reader's language ("need two limb leads that are not opposite"). */
  reason: string;
  /** The whole sentence in the reader's language. */
  sentence: string;
}

const QTC_KEYS = ['qtc_bazett_ms', 'qtc_fridericia_ms', 'qtc_framingham_ms', 'qtc_hodges_ms'];

/** The `not_measured` sentences read: which keys each names and why, in the reader's language. */
export function notMeasuredReasons(sentences: readonly string[]): NotMeasured[] {
  return sentences.map((english) => {
    const colon = english.indexOf(':');
    const subject = colon >= 0 ? english.slice(0, colon) : '';
    const keys = subject
      .split(',')
      .map((key) => key.trim())
      .flatMap((key) => (key === 'qtc' ? QTC_KEYS : [key]));
    const sentence = reasonText(english);
    // The translations keep the keys and the colon (French with a space before it).
    const at = sentence.indexOf(':');
    const reason = at >= 0 ? sentence.slice(at + 1).trim() : sentence;
    return { keys, reason, sentence };
  });
}

/** Why `key` was not measured, in the reader's language, or null when no sentence names it. */
export function whyNotMeasured(reasons: readonly NotMeasured[], key: string): string | null {
  return reasons.find((r) => r.keys.includes(key))?.reason ?? null;
}

/** The `not_measured` sentence about the statements (a record of one or two leads), or null. */
export function statementsNotMade(reasons: readonly NotMeasured[]): NotMeasured | null {
  return reasons.find((r) => r.keys.includes('interpretation statements')) ?? null;
}

/** A sentence's first letter as a capital (a `not_measured` sentence shown on its own). */
export function capitalised(text: string): string {
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}
