/** Spec §4: a test result's badge, from the model's label. */
import type { Analysis } from '../../api/client';

export type TestStatus = 'normal' | 'abnormal' | 'review';

const NORMAL = new Set(['normal']);
const REVIEW = new Set(['unsure', 'noisy']);

/** `normal` for a normal finding, `review` when the recording could not be judged, else `abnormal`. */
export function testStatus(label: string): TestStatus {
  if (NORMAL.has(label)) return 'normal';
  if (REVIEW.has(label)) return 'review';
  return 'abnormal';
}

/** The heart rate a model measured, when it measured one. */
export function heartRate(analysis: Analysis): number | null {
  const value = analysis.result.details.heart_rate_bpm;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
