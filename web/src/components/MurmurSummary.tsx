import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { MurmurResult } from '../api/client';
import { SITES, isMurmurTiming, isSite, murmurVerdict } from '../lib/auscultation';

/** "holosystolic, grade II/VI": what is known of a murmur, or `null`. */
export function murmurCharacter(t: TFunction, timing?: string | null, grade?: string | null): string | null {
  const parts: string[] = [];
  if (isMurmurTiming(timing)) parts.push(t(`murmur.timings.${timing}`));
  if (grade) parts.push(t('murmur.grade', { grade }));
  return parts.length > 0 ? parts.join(', ') : null;
}

/** "Murmur present — holosystolic, grade II/VI": a verdict with what is known of the murmur. */
export function murmurWords(t: TFunction, verdict: unknown, timing?: string | null, grade?: string | null): string {
  const word = t(`murmur.verdicts.${murmurVerdict(verdict)}`);
  const character = murmurCharacter(t, timing, grade);
  return character ? `${word} — ${character}` : word;
}

/**
 * The screening's heart-murmur verdict over its auscultation sites (decided by the server from the
 * newest recording at each site), where it is heard, and each site's own verdict.
 */
export function MurmurSummary({ murmur }: { murmur: MurmurResult }) {
  const { t } = useTranslation();
  const heard = murmur.heard_at.filter(isSite);
  const verdict = murmurVerdict(murmur.verdict);
  const character = verdict === 'present' ? murmurCharacter(t, murmur.timing, murmur.grade) : null;
  return (
    <section className={`murmur-summary murmur-summary--${verdict}`} aria-labelledby="murmur-summary-title">
      <h3 id="murmur-summary-title" className="murmur-summary__title">
        {t('murmur.title')}
      </h3>
      <p className="murmur-summary__verdict" data-testid="murmur-verdict">
        <strong>{t(`murmur.verdicts.${verdict}`)}</strong>
        {heard.length > 0 ? ` — ${t('murmur.heardAt', { sites: heard.join(', ') })}` : null}
        {character ? `; ${character}` : null}
      </p>
      <ul className="murmur-summary__sites">
        {murmur.sites.map((s) => (
          <li key={s.analysis_id}>
            <span className="murmur-summary__site">{isSite(s.site) ? s.site : '—'}</span>{' '}
            {murmurWords(t, s.verdict, s.timing, s.grade)}
          </li>
        ))}
      </ul>
      <p className="muted small">
        {t('murmur.sitesRecorded', { count: murmur.sites.filter((s) => isSite(s.site)).length, total: SITES.length })}{' '}
        {t('murmur.model')}
      </p>
    </section>
  );
}
