import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../api/queryKeys';
import { fetchEcgStatements, fetchReviewHistory, postReview, type ReviewBody, type ReviewTarget } from '../api/reviews';

/**
 * A result's reviews and the mutation that adds one, for the review panel: a saved review
 * refreshes every review history (a screening's sign-off may settle its analyses too) and every
 * list that shows review states (analyses, screenings, the dashboard, the audit trail).
 */
export function useReview(target: ReviewTarget) {
  const queryClient = useQueryClient();
  const queryKey = queryKeys.reviews(target.kind, target.id);
  const history = useQuery({ queryKey, queryFn: () => fetchReviewHistory(target), retry: false });
  const save = useMutation({
    mutationFn: (body: ReviewBody) => postReview(target, body),
    onSuccess: () => {
      for (const key of [['reviews'], queryKeys.analyses, queryKeys.screenings, queryKeys.dashboard, queryKeys.audit]) {
        void queryClient.invalidateQueries({ queryKey: key });
      }
    },
  });
  return { history, save };
}

/** What [`useReview`] gives the review panel. */
export type ReviewState = ReturnType<typeof useReview>;

/** The table of ECG statements an ECG's sign-off confirms or adds (fixed while the server runs). */
export function useEcgStatements(enabled = true) {
  return useQuery({
    queryKey: queryKeys.ecgStatements,
    queryFn: fetchEcgStatements,
    staleTime: Infinity,
    retry: 1,
    enabled,
  });
}
