/**
 * The ECG interpretation a doctor confirms at sign-off (issue 40): the statements being edited
 * (`DraftStatement`), where an edit starts from (the interpretation confirmed last, else Cardio's
 * computer interpretation), and a statement's words in the reader's language (the models'
 * catalogue `content.reasons.templates.e12_<code>`; the doctor's own words as written).
 */
import i18n from 'i18next';
import type { TFunction } from 'i18next';
import type { ConfirmedStatement, Review } from '../api/client';
import type { Ecg12Statement } from './ecg12';

/** A statement being confirmed: a code of the table (with its English text), or own words. */
export interface DraftStatement {
  code: string | null;
  text: string;
}

/** A statement's text in the reader's language: a coded one from the catalogue, else `english`. */
export function statementText(t: TFunction, code: string | null | undefined, english: string): string {
  if (!code) return english;
  const key = `content.reasons.templates.e12_${code}`;
  return i18n.exists(key) ? String(t(key as never)) : english;
}

/** A confirmed statement as shown. */
export function confirmedText(t: TFunction, statement: ConfirmedStatement): string {
  return statementText(t, statement.code, statement.text);
}

/**
 * Where the doctor's edit starts: the current review's confirmed interpretation, or Cardio's
 * statements (the overall category included) when none is confirmed yet.
 */
export function initialDraft(latest: Review | undefined, computer: Ecg12Statement[]): DraftStatement[] {
  if (latest?.interpretation) {
    return latest.interpretation.map((s) => ({ code: s.code ?? null, text: s.text }));
  }
  return computer.map((s) => ({ code: s.code, text: s.text }));
}
