import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { reasonText } from '../lib/clinicalText';
import {
  capitalised,
  CATEGORY_CODES,
  notMeasuredReasons,
  statementsNotMade,
  type Ecg12Details,
  type Ecg12Statement,
} from '../lib/ecg12';

const SUMMARY_CODES = new Set<string>(Object.values(CATEGORY_CODES));

/**
 * Cardio's computer interpretation of a 12-lead (or 6-lead) ECG, unconfirmed: the overall category
 * (normal, borderline, abnormal ECG) once and set apart, then each statement with the values that
 * fired it and its criterion, all in the reader's language. A record of one or two leads gets no
 * statements, and says so.
 */
export function EcgStatementsPanel({ ecg, headingLevel = 3 }: { ecg: Ecg12Details; headingLevel?: 2 | 3 }) {
  const { t } = useTranslation();
  const id = useId();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const statements = ecg.statements.filter((s) => !SUMMARY_CODES.has(s.code));
  const summary = ecg.category
    ? (ecg.statements.find((s) => s.code === CATEGORY_CODES[ecg.category as keyof typeof CATEGORY_CODES]) ?? null)
    : null;

  /** The statements a summary's values name ("first_degree_av_block, lvh"), by their texts. */
  const basedOn = (values: string): string => {
    const codes = values.split(',').map((code) => code.trim());
    const texts = codes.map((code) => ecg.statements.find((s) => s.code === code));
    if (texts.every((s): s is Ecg12Statement => s !== undefined)) {
      return texts.map((s) => reasonText(s.text)).join(', ');
    }
    return reasonText(values);
  };

  let empty: string | null = null;
  if (ecg.statements.length === 0) {
    const few = statementsNotMade(notMeasuredReasons(ecg.notMeasured));
    if (few) empty = capitalised(few.sentence);
    else if (ecg.leadsUsed.length > 0 && ecg.leadsUsed.length < 3) empty = t('ecgStatements.fewLeads');
    else empty = t('ecgStatements.none');
  }

  return (
    <section className="ecg-statements" aria-labelledby={`${id}-title`}>
      <Heading id={`${id}-title`} className="ecg-panel__title">
        {t('ecgStatements.title')}
      </Heading>
      <p className="muted ecg-statements__note">{t('ecgStatements.note')}</p>
      {ecg.category ? (
        <div className={`ecg-statements__summary ecg-statements__summary--${ecg.category}`}>
          <p className="ecg-statements__category">
            {t(`content.reasons.templates.e12_${CATEGORY_CODES[ecg.category]}`)}
          </p>
          {summary ? (
            <>
              <p className="ecg-statements__values">
                {t('ecgStatements.basedOn', { values: basedOn(summary.values) })}
              </p>
              <p className="ecg-statements__criterion">
                {t('ecgStatements.criterion', { criterion: reasonText(summary.criterion) })}
              </p>
            </>
          ) : null}
        </div>
      ) : null}
      {statements.length > 0 ? (
        <ul className="ecg-statements__list" aria-labelledby={`${id}-title`}>
          {statements.map((statement, index) => (
            // A code may fire once only, but its position keeps the order the server gave.
            <li key={`${statement.code}-${index}`} className="ecg-statements__item">
              <p className="ecg-statements__text">{reasonText(statement.text)}</p>
              <p className="ecg-statements__values">
                {t('ecgStatements.values', { values: reasonText(statement.values) })}
              </p>
              <p className="ecg-statements__criterion">
                {t('ecgStatements.criterion', { criterion: reasonText(statement.criterion) })}
              </p>
            </li>
          ))}
        </ul>
      ) : null}
      {empty ? <p className="ecg-statements__empty">{empty}</p> : null}
    </section>
  );
}
