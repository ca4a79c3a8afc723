/**
 * The review (sign-off) API shared by the analysis page and the screening's result: the history of
 * a result's reviews, newest first, and a new review that supersedes the current one.
 */
import { api, unwrap, type Agreement, type EcgStatementOption, type Review, type StatementChoice } from './client';

/** What is reviewed: one analysis, or a screening's combined result. */
export type ReviewTarget = { kind: 'analysis' | 'screening'; id: string };

/** What a doctor sends to sign a result off. */
export interface ReviewBody {
  agreement: Agreement;
  comment: string;
  /** A screening's sign-off: its analyses signed off with it (their findings stand). */
  settle_analyses?: string[];
  /** An ECG's sign-off: the interpretation the doctor confirms (codes of the table, own words). */
  interpretation?: StatementChoice[];
}

/** The table of ECG statements the doctor confirms or adds (public, the same for everyone). */
export function fetchEcgStatements(): Promise<EcgStatementOption[]> {
  return unwrap(api.GET('/api/ecg/statements'));
}

export function fetchReviewHistory(target: ReviewTarget): Promise<Review[]> {
  const params = { params: { path: { id: target.id } } };
  return unwrap(
    target.kind === 'analysis'
      ? api.GET('/api/analyses/{id}/reviews', params)
      : api.GET('/api/screenings/{id}/reviews', params),
  );
}

export function postReview(target: ReviewTarget, body: ReviewBody): Promise<Review> {
  const params = { params: { path: { id: target.id } }, body };
  return unwrap(
    target.kind === 'analysis'
      ? api.POST('/api/analyses/{id}/reviews', params)
      : api.POST('/api/screenings/{id}/reviews', params),
  );
}
