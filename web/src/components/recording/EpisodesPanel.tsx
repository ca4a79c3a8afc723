/**
 * What a long recording's result says about the whole record: a summary line ("30 min 5 s analysed
 * · AF burden 12% · 3 AF episodes, longest 41 min", with how much was too noisy to read), the beat
 * counts when given, and a table of the episodes (kind in words, start, end, duration) whose "Show"
 * button asks the page to move the paper there. It draws what the page gives it and calls no API.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useDurationText } from './durationText';
import { afSummary, formatHms, type Episode, type RecordDetails } from './recordTimeline';

/** The summary line's parts, in the reader's language (empty when the result gives none). */
export function useRecordSummary(record: RecordDetails): string[] {
  const { t, i18n } = useTranslation();
  const duration = useDurationText();
  const parts: string[] = [];
  if (record.analysedS !== null) parts.push(t('wholeRecord.analysed', { duration: duration(record.analysedS) }));
  if (record.afBurden !== null) {
    const percent = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 });
    parts.push(t('wholeRecord.afBurden', { percent: percent.format(record.afBurden) }));
  }
  if (record.episodes) {
    const af = afSummary(record.episodes);
    if (af.count > 0) parts.push(t('wholeRecord.afEpisodes', { count: af.count, duration: duration(af.longestS) }));
  }
  if (record.noisyS !== null && record.noisyS > 0) {
    parts.push(t('wholeRecord.noisy', { duration: duration(record.noisyS) }));
  }
  return parts;
}

export function EpisodesPanel({
  record,
  onShow,
}: {
  record: RecordDetails;
  /** Asks the page to show this episode on the paper; without it the table has no "Show" buttons. */
  onShow?: (episode: Episode) => void;
}) {
  const { t, i18n } = useTranslation();
  const ids = useId();
  const duration = useDurationText();
  const summary = useRecordSummary(record);
  const count = new Intl.NumberFormat(i18n.language);
  const kindName = (kind: Episode['kind']) => t(`wholeRecord.kinds.${kind}`);
  return (
    <section className="record-episodes" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`}>{t('wholeRecord.episodes')}</h3>
      {summary.length > 0 ? (
        <p className="record-episodes__summary" data-testid="record-summary">
          {summary.join(' · ')}
        </p>
      ) : null}
      {record.beatCounts ? (
        <p className="muted">
          {t('wholeRecord.beatCounts', {
            n: count.format(record.beatCounts.n),
            s: count.format(record.beatCounts.s),
            v: count.format(record.beatCounts.v),
          })}
        </p>
      ) : null}
      {record.episodes === null ? null : record.episodes.length === 0 ? (
        <p className="muted">{t('wholeRecord.noEpisodes')}</p>
      ) : (
        <div className="record-episodes__scroll">
          <table className="record-episodes__table">
            <thead>
              <tr>
                <th scope="col">{t('wholeRecord.columns.kind')}</th>
                <th scope="col">{t('wholeRecord.columns.start')}</th>
                <th scope="col">{t('wholeRecord.columns.end')}</th>
                <th scope="col">{t('wholeRecord.columns.duration')}</th>
                {onShow ? <th scope="col" aria-label={t('wholeRecord.show')} /> : null}
              </tr>
            </thead>
            <tbody>
              {record.episodes.map((episode, index) => (
                // Episodes have no identity of their own; their place in the sorted list is it.
                <tr key={index} data-episode={episode.kind}>
                  <th scope="row">
                    <span
                      className={`record-timeline__swatch record-timeline__swatch--${episode.kind}`}
                      aria-hidden="true"
                    />
                    {kindName(episode.kind)}
                  </th>
                  <td>{formatHms(episode.start_s)}</td>
                  <td>{formatHms(episode.end_s)}</td>
                  <td>{duration(episode.end_s - episode.start_s)}</td>
                  {onShow ? (
                    <td>
                      <button
                        type="button"
                        className="button button--secondary button--small"
                        aria-label={t('wholeRecord.showLabel', {
                          kind: kindName(episode.kind),
                          start: formatHms(episode.start_s),
                        })}
                        onClick={() => onShow(episode)}
                      >
                        {t('wholeRecord.show')}
                      </button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
