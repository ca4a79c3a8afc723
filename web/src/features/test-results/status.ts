/** Spec §4: a test result's badge, from the model's label. */
import type { Analysis } from '../../api/client';
import { findingOf } from '../../lib/prediction';

export type TestStatus = 'normal' | 'abnormal' | 'review';

/** `normal` for a normal finding (`normal`, `no_disease`), `review` when the recording could not be judged, else `abnormal`. */
export function testStatus(label: string): TestStatus {
  const finding = findingOf(label);
  return finding === 'inconclusive' ? 'review' : finding;
}

/** The heart rate a model measured, when it measured one. */
export function heartRate(analysis: Analysis): number | null {
  const value = analysis.result.details.heart_rate_bpm;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
