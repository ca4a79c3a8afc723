/**
 * A patient account's home (the `user` role of spec §6): invitations from doctors to accept, then
 * the results they shared — dates, findings in plain language, the heart-rate trend, PDF reports.
 */
import { FileDown, HeartPulse, Inbox, MailCheck, MailOpen } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ApiError, type SharedResult } from '../../api/client';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Spinner } from '../../components/Spinner';
import { apiErrorMessage } from '../../lib/apiErrors';
import { hasTitle } from '../../lib/doctorName';
import { confirmedText } from '../../lib/interpretation';
import { formatDateTime, formatDay } from '../../lib/format';
import { modelName } from '../../lib/prediction';
import { useCurrentUser } from '../../lib/session';
import { heartRateTrend, TREND_SOURCES, type TrendSource } from './heartRateTrend';
import { useAcceptInvitation, useInvitations, useResendVerification, useSharedResults } from './api/shared';

/** The server's answer to accepting an invitation before the account's address is verified. */
const VERIFY_EMAIL_FIRST = 'Verify your email address before accepting a shared record.';

const FINDING_BADGES = { normal: 'badge--success', abnormal: 'badge--danger', inconclusive: 'badge--warning' } as const;

export function SharedHome() {
  return (
    <>
      <Invitations />
      <SharedResults />
    </>
  );
}

function Invitations() {
  const { t } = useTranslation();
  const invitations = useInvitations();
  const accept = useAcceptInvitation();
  const { emailVerified } = useCurrentUser();
  if (!invitations.data) return null;
  // Invitations are listed once the address is verified: until then, how to get there.
  if (invitations.data.length === 0) return emailVerified ? null : <VerifyToSeeInvitations />;
  return (
    <section className="section card" aria-labelledby="home-invitations">
      <h2 id="home-invitations" className="section__title">
        <MailOpen aria-hidden="true" size={18} /> {t('shared.invitationsTitle')}
      </h2>
      <ErrorBanner message={accept.isError ? apiErrorMessage(accept.error, t('shared.acceptError'), t) : null} />
      {accept.error instanceof ApiError && accept.error.detail === VERIFY_EMAIL_FIRST ? <ResendVerification /> : null}
      <ul className="shared-list">
        {invitations.data.map((invitation) => (
          <li key={invitation.id} className="shared-list__item">
            <span>
              {t(hasTitle(invitation.doctorName) ? 'shared.invitationTitled' : 'shared.invitation', {
                doctor: invitation.doctorName,
                name: invitation.patientFirstName,
                date: formatDay(invitation.createdAt),
              })}
            </span>
            <button
              type="button"
              className="button button--primary"
              disabled={accept.isPending}
              onClick={() => accept.mutate(invitation.id)}
            >
              {t('shared.accept')}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function VerifyToSeeInvitations() {
  const { t } = useTranslation();
  return (
    <section className="section card" aria-labelledby="home-invitations">
      <h2 id="home-invitations" className="section__title">
        <MailOpen aria-hidden="true" size={18} /> {t('shared.invitationsTitle')}
      </h2>
      <p>{t('shared.verifyToSee')}</p>
      <ResendVerification />
    </section>
  );
}

/** "Send the link again", beside the answer that the address must be verified first. */
function ResendVerification() {
  const { t } = useTranslation();
  const { email } = useCurrentUser();
  const resend = useResendVerification();
  if (resend.isSuccess) {
    return (
      <p className="notice" role="status">
        {t('account.verificationSent', { email })}
      </p>
    );
  }
  return (
    <div className="verify-email">
      <button
        type="button"
        className="button button--secondary button--small"
        onClick={() => resend.mutate()}
        disabled={resend.isPending}
      >
        <MailCheck aria-hidden="true" size={14} />
        {resend.isPending ? t('account.sending') : t('shared.resendLink')}
      </button>
      <ErrorBanner message={resend.isError ? apiErrorMessage(resend.error, t('account.requestFailed'), t) : null} />
    </div>
  );
}

/** The results doctors shared with this account (home and Test Results of a patient account). */
export function SharedResults() {
  const { t } = useTranslation();
  const results = useSharedResults();
  let body;
  if (results.isPending) body = <Spinner label={t('app.loading')} />;
  else if (results.isError) body = <ErrorBanner message={apiErrorMessage(results.error, t('shared.loadError'), t)} />;
  else if (results.data.length === 0)
    body = <EmptyState icon={<Inbox size={28} />} title={t('shared.emptyTitle')} text={t('shared.emptyText')} />;
  else
    body = (
      <>
        <HeartRateTrend results={results.data} />
        <ul className="shared-list" aria-label={t('shared.listLabel')}>
          {results.data.map((result) => (
            <ResultItem key={result.id} result={result} />
          ))}
        </ul>
      </>
    );
  return (
    <section className="section card" aria-labelledby="home-shared">
      <h2 id="home-shared" className="section__title">
        {t('shared.title')}
      </h2>
      <p className="muted">{t('shared.explain')}</p>
      {body}
    </section>
  );
}

function ResultItem({ result }: { result: SharedResult }) {
  const { t } = useTranslation();
  const finding = result.finding as keyof typeof FINDING_BADGES;
  let review;
  if (!result.reviewed || !result.reviewedAt) review = t('shared.notReviewed');
  else if (result.doctorAgreed === false)
    review = t('shared.reviewedDisagreed', { date: formatDay(result.reviewedAt) });
  else review = t('shared.reviewed', { date: formatDay(result.reviewedAt) });
  return (
    <li className="shared-list__item">
      <div className="shared-list__what">
        <strong>{t('shared.test', { name: modelName(result.modality) })}</strong>
        <time className="muted" dateTime={result.createdAt}>
          {formatDateTime(result.createdAt)}
        </time>
        <span className={`badge ${FINDING_BADGES[finding] ?? 'badge--warning'}`}>
          {t(`shared.findings.${finding}`)}
        </span>
        {result.heartRateBpm != null ? (
          <span>{t('shared.heartRate', { bpm: Math.round(result.heartRateBpm) })}</span>
        ) : null}
        <span className="muted">
          {review} · {t('shared.doctor', { name: result.doctorName })}
        </span>
        {result.interpretation && result.interpretation.length > 0 ? (
          <p className="shared-list__interpretation">
            {t('shared.interpretation', {
              statements: result.interpretation.map((s) => confirmedText(t, s)).join('; '),
            })}
          </p>
        ) : null}
      </div>
      <a className="button button--secondary" href={result.reportUrl} download>
        <FileDown aria-hidden="true" size={16} /> {t('shared.downloadReport')}
      </a>
    </li>
  );
}

/** Each source's line: a colour and a dash pattern, so that the series differ without colour too. */
const SERIES_STYLE: Record<TrendSource, { stroke: string; dash?: string }> = {
  ecg: { stroke: 'var(--color-primary)' },
  ppg: { stroke: 'var(--color-accent)', dash: '6 4' },
  pcg: { stroke: 'var(--color-success)', dash: '2 3' },
};

function HeartRateTrend({ results }: { results: SharedResult[] }) {
  const { t } = useTranslation();
  const { points, sources } = heartRateTrend(results);
  const latest = points[points.length - 1];
  if (!latest) return null;
  const latestBpm = TREND_SOURCES.map((source) => latest[source]).find((bpm) => bpm != null);
  return (
    <figure className="shared-trend">
      <figcaption className="shared-trend__caption">
        <HeartPulse aria-hidden="true" size={18} /> {t('shared.trendTitle')} —{' '}
        {t('shared.trendLatest', { bpm: latestBpm, date: formatDay(latest.at) })}
      </figcaption>
      <div className="shared-trend__chart" role="img" aria-label={t('shared.trendLabel', { count: points.length })}>
        <ResponsiveContainer width="100%" height={180}>
          <LineChart data={points} margin={{ top: 8, right: 16, bottom: 0, left: -16 }}>
            <CartesianGrid stroke="var(--color-border)" strokeDasharray="3 3" />
            <XAxis dataKey="label" stroke="var(--color-text-muted)" fontSize={12} />
            <YAxis stroke="var(--color-text-muted)" fontSize={12} domain={['dataMin - 10', 'dataMax + 10']} unit="" />
            <Tooltip formatter={(value, name) => [`${String(value)} bpm`, name]} />
            {sources.map((source) => (
              <Line
                key={source}
                type="monotone"
                dataKey={source}
                name={modelName(source)}
                stroke={SERIES_STYLE[source].stroke}
                strokeDasharray={SERIES_STYLE[source].dash}
                strokeWidth={2}
                connectNulls
                dot
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <ul className="shared-trend__legend" aria-label={t('shared.trendSources')}>
        {sources.map((source) => (
          <li key={source}>
            <svg width="24" height="8" aria-hidden="true">
              <line
                x1="0"
                y1="4"
                x2="24"
                y2="4"
                stroke={SERIES_STYLE[source].stroke}
                strokeDasharray={SERIES_STYLE[source].dash}
                strokeWidth="2"
              />
            </svg>
            {modelName(source)}
          </li>
        ))}
      </ul>
    </figure>
  );
}

/** Test Results for a patient account, which has no analyses of its own: what its doctors shared. */
export function SharedResultsPage() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <PageHeader title={t('testResults.title')} />
      <SharedResults />
    </div>
  );
}
