import { CircleCheck, Clock } from 'lucide-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Agreement, EcgStatementOption, Review } from '../../api/client';
import type { ReviewBody } from '../../api/reviews';
import { apiErrorMessage } from '../../lib/apiErrors';
import type { Ecg12Statement } from '../../lib/ecg12';
import { formatDateTime } from '../../lib/format';
import { confirmedText, initialDraft, type DraftStatement } from '../../lib/interpretation';
import { useCurrentUser } from '../../lib/session';
import type { ReviewState } from '../../lib/useReview';
import { ErrorBanner } from '../ErrorBanner';
import { Spinner } from '../Spinner';
import { choicesOf, InterpretationEditor } from './InterpretationEditor';

/** Longest comment the server takes (characters). */
export const MAX_COMMENT_CHARS = 2000;

function ReviewLine({ review }: { review: Review }) {
  const { t } = useTranslation();
  return (
    <>
      <p>
        {t('review.by', { name: review.reviewerName || t('review.unnamed'), date: formatDateTime(review.createdAt) })}{' '}
        <strong>{t(`review.verdict.${review.agreement}`)}</strong>
      </p>
      {review.comment ? <p className="review__comment">{review.comment}</p> : null}
      {review.interpretation ? (
        <p className="review__interpretation">
          {t('review.interpretation.confirmed', {
            statements: review.interpretation.map((s) => confirmedText(t, s)).join('; '),
          })}
        </p>
      ) : null}
    </>
  );
}

/** A result a screening's sign-off can settle: an analysis of the screening not yet reviewed. */
export interface SettleOption {
  id: string;
  /** What the doctor reads: the model and its finding. */
  label: string;
}

/** What an ECG result's sign-off needs to confirm its interpretation. */
export interface EcgSignOff {
  /** Cardio's statements, where an edit starts when none is confirmed yet. */
  computer: Ecg12Statement[];
  /** The statements table (`GET /api/ecg/statements`). */
  options: UseQueryResult<EcgStatementOption[]>;
}

/**
 * The doctor's sign-off of a result (issue: review state pending → reviewed): the current review,
 * a form to add one (agree or disagree with the model's finding, a comment; a new review
 * supersedes the previous one), and the history of earlier reviews, which are never edited.
 *
 * The form starts with neither answer chosen, and refuses to sign off until one is: a sign-off is
 * the doctor's decision, never a default. `resultChangedAt` (a combined result's time) marks a
 * current review made before the result last changed.
 *
 * A screening's panel lists its results not yet reviewed (`settle`), ticked: the sign-off signs
 * them off with it, as agreed, and sharing with the patient follows; the doctor unticks any to
 * review on its own page.
 *
 * An ECG result's panel (`ecg`) also holds the interpretation the sign-off confirms: it starts
 * from the one confirmed last, else from Cardio's statements, and the doctor removes, adds from
 * the statement list or writes their own; the sign-off sends it, and the server keeps each
 * version in the history.
 *
 * It fetches nothing itself: the page passes the result's reviews and the save mutation
 * (`useReview` in `lib/useReview.ts`), and for an ECG the statements table.
 */
export function ReviewPanel({
  review,
  resultChangedAt,
  settle = [],
  ecg,
}: {
  review: ReviewState;
  resultChangedAt?: string;
  settle?: SettleOption[];
  ecg?: EcgSignOff;
}) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const formId = useId();
  const { history, save } = review;
  const [agreement, setAgreement] = useState<Agreement | null>(null);
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // The results the doctor unticked (new ones start ticked).
  const [unticked, setUnticked] = useState<ReadonlySet<string>>(new Set());
  // The doctor's edit of the interpretation; `null` until they change it (then it follows the
  // current review, or Cardio's statements).
  const [draft, setDraft] = useState<DraftStatement[] | null>(null);
  const statements = draft ?? (ecg ? initialDraft(history.data?.[0], ecg.computer) : []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = comment.trim();
    if (agreement === null) {
      setProblem(t('review.errors.choose'));
      return;
    }
    if (agreement === 'disagree' && trimmed === '') {
      setProblem(t('review.errors.reasonNeeded'));
      return;
    }
    if (trimmed.length > MAX_COMMENT_CHARS) {
      setProblem(t('review.errors.tooLong'));
      return;
    }
    // An ECG with nothing to confirm (one lead, no statement) is signed off without an
    // interpretation; one confirmed before cannot be emptied.
    const confirmedBefore = Boolean(history.data?.[0]?.interpretation);
    if (ecg && statements.length === 0 && confirmedBefore) {
      setProblem(t('review.interpretation.empty'));
      return;
    }
    setProblem(null);
    const settled = settle.filter((option) => !unticked.has(option.id)).map((option) => option.id);
    const body: ReviewBody = { agreement, comment: trimmed };
    if (settled.length > 0) body.settle_analyses = settled;
    if (ecg && statements.length > 0) body.interpretation = choicesOf(statements);
    save.mutate(body, {
      onSuccess: () => {
        setComment('');
        setAgreement(null);
        setUnticked(new Set());
        setDraft(null);
      },
    });
  };

  let current;
  if (history.isPending) current = <Spinner label={t('app.loading')} />;
  else if (history.isError) current = <p className="muted">{t('review.loadError')}</p>;
  else if (history.data.length === 0)
    current = (
      <p className="review__state">
        <span className="badge badge--warning">
          <Clock size={14} aria-hidden="true" /> {t('review.pending')}
        </span>
      </p>
    );
  else {
    const latest = history.data[0] as Review;
    const outdated = resultChangedAt !== undefined && Date.parse(latest.createdAt) < Date.parse(resultChangedAt);
    current = (
      <div className="review__current">
        <p className="review__state">
          <span className="badge badge--success">
            <CircleCheck size={14} aria-hidden="true" /> {t('review.reviewed')}
          </span>
        </p>
        <ReviewLine review={latest} />
        {outdated ? (
          <p className="notice" role="note">
            {t('review.outdated', { date: formatDateTime(resultChangedAt) })}
          </p>
        ) : null}
      </div>
    );
  }

  const earlier = history.data?.slice(1) ?? [];
  const error = problem ?? (save.isError ? apiErrorMessage(save.error, t('review.errors.saveFailed'), t) : null);
  return (
    <section className="review" aria-labelledby={`${formId}-title`}>
      <h2 id={`${formId}-title`} className="section__title">
        {t('review.title')}
      </h2>
      {current}
      {user.role === 'doctor' ? (
        <form className="review__form" onSubmit={submit} noValidate>
          {error ? <ErrorBanner message={error} /> : null}
          <fieldset className="review__choices">
            <legend className="field__label">{t('review.question')}</legend>
            {(['agree', 'disagree'] as const).map((value) => (
              <label key={value} className="review__choice">
                <input
                  type="radio"
                  name={`${formId}-agreement`}
                  value={value}
                  checked={agreement === value}
                  onChange={() => setAgreement(value)}
                />
                {t(`review.choice.${value}`)}
              </label>
            ))}
          </fieldset>
          <label htmlFor={`${formId}-comment`} className="field__label">
            {agreement === 'disagree' ? t('review.commentRequired') : t('review.comment')}
          </label>
          <textarea
            id={`${formId}-comment`}
            className="input textarea"
            rows={3}
            value={comment}
            maxLength={MAX_COMMENT_CHARS}
            onChange={(event) => setComment(event.target.value)}
          />
          {ecg ? (
            <InterpretationEditor
              statements={statements}
              onChange={setDraft}
              options={ecg.options.data}
              optionsFailed={ecg.options.isError}
            />
          ) : null}
          {settle.length > 0 ? (
            <fieldset className="review__settle">
              <legend className="field__label">{t('review.settle.legend')}</legend>
              <p className="muted">{t('review.settle.hint')}</p>
              {settle.map((option) => (
                <label key={option.id} className="review__choice">
                  <input
                    type="checkbox"
                    checked={!unticked.has(option.id)}
                    onChange={(event) => {
                      const next = new Set(unticked);
                      if (event.target.checked) next.delete(option.id);
                      else next.add(option.id);
                      setUnticked(next);
                    }}
                  />
                  {option.label}
                </label>
              ))}
            </fieldset>
          ) : null}
          <div className="form-actions">
            <button type="submit" className="button button--primary" disabled={save.isPending}>
              {save.isPending ? t('review.saving') : history.data?.length ? t('review.supersede') : t('review.submit')}
            </button>
          </div>
        </form>
      ) : null}
      {earlier.length > 0 ? (
        <details className="review__history">
          <summary>{t('review.history', { count: earlier.length })}</summary>
          <ol>
            {earlier.map((review) => (
              <li key={review.id}>
                <span className="badge badge--muted">{t('review.superseded')}</span>
                <ReviewLine review={review} />
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </section>
  );
}
