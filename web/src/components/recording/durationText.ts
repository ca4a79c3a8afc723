/**
 * A length of recording in the reader's words ("30 min 5 s", "2 h 14 min"), split by
 * `durationParts` and worded by the language's `wholeRecord.duration` strings.
 */
import { useTranslation } from 'react-i18next';
import { durationParts } from './recordTimeline';

/** A function that words a length in seconds in the current language. */
export function useDurationText(): (seconds: number) => string {
  const { t } = useTranslation();
  return (seconds) => {
    const { h, m, s } = durationParts(seconds);
    if (h > 0) return m > 0 ? t('wholeRecord.duration.hm', { h, m }) : t('wholeRecord.duration.h', { h });
    if (m > 0) return s > 0 ? t('wholeRecord.duration.ms', { m, s }) : t('wholeRecord.duration.m', { m });
    return t('wholeRecord.duration.s', { s });
  };
}
