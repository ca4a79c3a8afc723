import { CircleCheck } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConfirmedStatement } from '../api/client';
import { formatDateTime } from '../lib/format';
import { confirmedText } from '../lib/interpretation';

/**
 * The ECG interpretation a doctor confirmed at sign-off (issue 40): who confirmed it and when,
 * and its statements in the reader's language (the doctor's own words as written). Shown above
 * Cardio's unconfirmed computer interpretation, and on the patient's shared results.
 */
export function ConfirmedInterpretationPanel({
  statements,
  reviewerName,
  confirmedAt,
  headingLevel = 3,
}: {
  statements: ConfirmedStatement[];
  /** Who confirmed it; omitted where the reader knows (the patient's own doctor). */
  reviewerName?: string;
  confirmedAt: string;
  headingLevel?: 2 | 3 | 4;
}) {
  const { t } = useTranslation();
  const id = useId();
  const Heading = `h${headingLevel}` as const;
  return (
    <section className="ecg-confirmed" aria-labelledby={`${id}-title`}>
      <Heading id={`${id}-title`} className="ecg-panel__title">
        <CircleCheck size={16} aria-hidden="true" /> {t('ecgConfirmed.title')}
      </Heading>
      <p className="muted">
        {reviewerName !== undefined
          ? t('ecgConfirmed.by', { name: reviewerName || t('review.unnamed'), date: formatDateTime(confirmedAt) })
          : t('ecgConfirmed.on', { date: formatDateTime(confirmedAt) })}
      </p>
      <ul className="ecg-confirmed__list">
        {statements.map((statement, index) => (
          // Own words may repeat; the position is the identity.
          <li key={`${statement.code ?? 'own'}-${index}`}>{confirmedText(t, statement)}</li>
        ))}
      </ul>
    </section>
  );
}
