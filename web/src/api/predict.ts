/**
 * The prediction calls of spec §7, shared by the home modals and the screening workflow.
 */
import { api, unwrap, type PredictionResult } from './client';
import type { SignalKind } from '../lib/fileRules';
import type { Site } from '../lib/auscultation';

/** The seven clinical values (spec §3), optionally for a patient or screening. */
export interface ClinicalPredictBody {
  age: number;
  chest_pain_type: number;
  cholesterol: number;
  fasting_blood_sugar: number;
  exercise_induced_angina: number;
  vessels_colored_by_flourosopy: number;
  thalassemia: number;
  patient_id?: string;
  screening_id?: string;
}

export function predictClinical(body: ClinicalPredictBody): Promise<PredictionResult> {
  return unwrap(api.POST('/api/predict/clinical', { body }));
}

const UPLOAD_PATHS = {
  ecg: '/api/predict/ecg/upload',
  pcg: '/api/predict/pcg/upload',
  ppg: '/api/predict/ppg/upload',
} as const;

/**
 * Uploads one recording as multipart field `file` (spec §7), optionally for a screening (heart
 * sounds: at an auscultation site); a WFDB record's header and signal files go as several `file`
 * fields.
 */
export function predictUpload(
  kind: SignalKind,
  files: File | File[],
  link: { screeningId?: string; site?: Site } = {},
): Promise<PredictionResult> {
  const form = new FormData();
  for (const file of Array.isArray(files) ? files : [files]) form.append('file', file, file.name);
  if (link.screeningId) form.append('screening_id', link.screeningId);
  if (link.site) form.append('site', link.site);
  return unwrap(
    api.POST(UPLOAD_PATHS[kind], {
      // The generated type describes the form's fields; the body sent is the FormData itself.
      body: { file: '' },
      bodySerializer: () => form,
    }),
  );
}
