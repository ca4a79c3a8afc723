import { useMutation, useQueryClient } from '@tanstack/react-query';
import { predictClinical, predictUpload, type ClinicalPredictBody } from '../../../api/predict';
import { queryKeys } from '../../../api/queryKeys';
import type { SignalKind } from '../../../lib/fileRules';

export type { ClinicalPredictBody };

export type PredictInput = { kind: 'clinical'; body: ClinicalPredictBody } | { kind: SignalKind; files: File[] };

/** Runs a prediction from a home modal; a stored analysis changes the activity list and the results. */
export function usePredict() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PredictInput) =>
      input.kind === 'clinical' ? predictClinical(input.body) : predictUpload(input.kind, input.files),
    onSuccess: () => {
      for (const queryKey of [queryKeys.audit, queryKeys.analyses]) void queryClient.invalidateQueries({ queryKey });
    },
  });
}
