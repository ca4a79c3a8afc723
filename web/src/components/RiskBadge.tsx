import { CircleCheck, CircleHelp, Info, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CombinedResult } from '../api/client';
import { combinedBadge, resultBadge, TONE_BADGES, type Tone } from '../lib/prediction';

/** Spec §9: a check when the badge is green, a warning otherwise; neutral badges get their own icon. */
function ToneIcon({ tone, neutral }: { tone: Tone; neutral: ReactNode }) {
  if (tone === 'success') return <CircleCheck aria-hidden="true" size={14} />;
  if (tone === 'neutral') return <>{neutral}</>;
  return <TriangleAlert aria-hidden="true" size={14} />;
}

/**
 * The risk badge of one model's result (spec §9): the band of its risk score, never in success
 * colours for an abnormal finding, and "Inconclusive" for a recording the model could not judge.
 */
export function ResultBadge({ label, riskScore }: { label: string; riskScore: number }) {
  const { t } = useTranslation();
  const { level, tone } = resultBadge(label, riskScore);
  return (
    <span className={`badge ${TONE_BADGES[tone]}`}>
      <ToneIcon tone={tone} neutral={<CircleHelp aria-hidden="true" size={14} />} />
      &nbsp;{t(`results.risk.${level}`)}
    </span>
  );
}

/**
 * The badge of a screening's combined result: its band (or `text` in its place) and how many of the
 * four modalities it rests on ("based on 1 of 4"). A low risk from a single modality is neutral, not
 * green.
 */
export function CombinedRiskBadge({
  combined,
  text,
}: {
  combined: Pick<CombinedResult, 'risk_score' | 'based_on' | 'out_of'>;
  text?: string;
}) {
  const { t } = useTranslation();
  const { level, tone } = combinedBadge(combined);
  return (
    <span className={`badge ${TONE_BADGES[tone]}`}>
      <ToneIcon tone={tone} neutral={<Info aria-hidden="true" size={14} />} />
      &nbsp;{text ?? t(`results.risk.${level}`)}
      {' · '}
      {t('combined.basedOn', { count: combined.based_on, total: combined.out_of })}
    </span>
  );
}
