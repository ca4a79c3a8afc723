import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type PredictionResult } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** The clinical modal's seven values (spec §3). */
export interface ClinicalPredictBody {
  age: number;
  chest_pain_type: number;
  cholesterol: number;
  fasting_blood_sugar: number;
  exercise_induced_angina: number;
  vessels_colored_by_flourosopy: number;
  thalassemia: number;
}

export function predictClinical(body: ClinicalPredictBody): Promise<PredictionResult> {
  return unwrap(api.POST('/api/predict/clinical', { body }));
}

export type SignalKind = 'ecg' | 'pcg' | 'ppg';

const UPLOAD_PATHS = {
  ecg: '/api/predict/ecg/upload',
  pcg: '/api/predict/pcg/upload',
  ppg: '/api/predict/ppg/upload',
} as const;

/** Uploads one recording as multipart field `file` (spec §7). */
export function predictUpload(kind: SignalKind, file: File): Promise<PredictionResult> {
  const form = new FormData();
  form.append('file', file, file.name);
  return unwrap(
    api.POST(UPLOAD_PATHS[kind], {
      // The generated type describes the form's fields; the body sent is the FormData itself.
      body: { file: '' },
      bodySerializer: () => form,
    }),
  );
}

export type PredictInput = { kind: 'clinical'; body: ClinicalPredictBody } | { kind: SignalKind; file: File };

/** Runs a prediction; a stored analysis changes the activity list. */
export function usePredict() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PredictInput) =>
      input.kind === 'clinical' ? predictClinical(input.body) : predictUpload(input.kind, input.file),
    onSuccess: () => {
      for (const queryKey of [queryKeys.audit, queryKeys.analyses]) void queryClient.invalidateQueries({ queryKey });
    },
  });
}
