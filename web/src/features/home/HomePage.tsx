import type { TFunction } from 'i18next';
import { Activity, ClipboardList, Inbox, Stethoscope, Usb, Users, Waves } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { AuditEntry } from '../../api/client';
import { paths } from '../../app/paths';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { StatGrid } from '../../components/StatGrid';
import { Spinner } from '../../components/Spinner';
import { formatDateTime, formatRelative, localMidnight } from '../../lib/format';
import { displayNameOf, useCurrentUser } from '../../lib/session';
import type { ModelKind } from '../../lib/prediction';
import { SharedHome } from './SharedHome';
import { useDashboard, useRecentActivity } from './api';
import { ModelDialog } from './models/ModelDialog';

const MODELS = [
  { key: 'clinical', icon: <ClipboardList size={22} /> },
  { key: 'pcg', icon: <Stethoscope size={22} /> },
  { key: 'ppg', icon: <Waves size={22} /> },
  { key: 'ecg', icon: <Activity size={22} /> },
] as const;

/** How many audit rows "Recent Activity" shows. */
export const RECENT_ACTIVITY_LIMIT = 10;

export function HomePage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const isDoctor = user.role === 'doctor';
  const [openModel, setOpenModel] = useState<ModelKind | null>(null);
  return (
    <div className="page">
      <PageHeader
        title={t('home.title', { name: displayNameOf(user) })}
        subtitle={t('home.subtitle')}
        actions={
          isDoctor ? (
            <Link to={paths.intake} className="button button--primary">
              {t('home.startAnalysis')}
            </Link>
          ) : undefined
        }
      />

      {isDoctor ? <Figures isDoctor={isDoctor} /> : <SharedHome />}

      {/* The models are for clinicians: a patient account sees the results its doctors share. */}
      {isDoctor ? <Models onOpen={setOpenModel} /> : null}

      {isDoctor ? <RecentActivity isDoctor={isDoctor} /> : null}
      {openModel ? <ModelDialog key={openModel} kind={openModel} onClose={() => setOpenModel(null)} /> : null}
    </div>
  );
}

/** The four model dialogs (doctor accounts only). */
function Models({ onOpen }: { onOpen: (kind: ModelKind) => void }) {
  const { t } = useTranslation();
  return (
    <section className="section" aria-labelledby="home-models">
      <h2 id="home-models" className="section__title">
        {t('home.modelsTitle')}
      </h2>
      <p className="section__text">{t('home.modelsText')}</p>
      <ul className="model-grid">
        {MODELS.map(({ key, icon }) => (
          <li key={key}>
            <button
              type="button"
              className="card model-card model-card--button"
              aria-haspopup="dialog"
              onClick={() => onOpen(key)}
            >
              <span className="model-card__icon" aria-hidden="true">
                {icon}
              </span>
              <span className="model-card__body">
                <span className="model-card__title">{t(`home.models.${key}.title`)}</span>
                <span className="model-card__text">{t(`home.models.${key}.text`)}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The spec's four figures, from stored data: total patients, tests today (since local midnight),
 * pending reviews, devices active; none for user-role accounts. */
function Figures({ isDoctor }: { isDoctor: boolean }) {
  const { t } = useTranslation();
  // The start of the day is fixed when the page opens, so the query key stays stable.
  const [since] = useState(() => localMidnight());
  const dashboard = useDashboard(since, isDoctor);

  let body;
  if (!isDoctor) {
    body = <p className="muted">{t('home.userNoFigures')}</p>;
  } else if (dashboard.isPending) {
    body = <Spinner label={t('app.loading')} />;
  } else if (dashboard.isError) {
    body = <p className="muted">{t('home.statsError')}</p>;
  } else {
    const stats = [
      { key: 'totalPatients', value: dashboard.data.totalPatients, icon: <Users size={24} /> },
      { key: 'testsToday', value: dashboard.data.testsToday, icon: <Waves size={24} /> },
      { key: 'pendingReviews', value: dashboard.data.pendingReviews, icon: <Inbox size={24} /> },
      { key: 'devicesActive', value: dashboard.data.devicesActive, icon: <Usb size={24} /> },
    ] as const;
    body = <StatGrid stats={stats.map((stat) => ({ ...stat, label: t(`home.stats.${stat.key}`) }))} />;
  }

  return (
    <section className="section" aria-labelledby="home-figures">
      <h2 id="home-figures" className="section__title">
        {t('home.statsTitle')}
      </h2>
      {body}
    </section>
  );
}

const ACTIONS = ['create', 'read', 'update', 'export'] as const;
const ENTITIES = ['patient', 'clinical', 'screening', 'analysis'] as const;
/** Kinds of record whose line says what happened whatever the action. */
const KINDS = [
  'analysis_review',
  'analysis_report_pdf',
  'screening_report_pdf',
  'patient_fhir',
  'patient_share',
  'patient_share_accepted',
  'patient_share_revoked',
  'shared_results',
  'shared_report_pdf',
  'export_zip',
  'analyses_csv',
  'backup',
  'data_settings',
] as const;
/** Kinds that concern one patient's record: without a patient name, the line says "no patient". */
const PATIENT_KINDS: readonly string[] = [
  ...ENTITIES,
  'analysis_review',
  'analysis_report_pdf',
  'screening_report_pdf',
  'patient_fhir',
  'patient_share',
  'patient_share_accepted',
  'patient_share_revoked',
];

function activityLabel(entry: AuditEntry, t: TFunction): string {
  const entity = ENTITIES.find((known) => known === entry.entity);
  const action = ACTIONS.find((known) => known === entry.action);
  if (entity && action) return t(`home.activity.${entity}.${action}`);
  const kind = KINDS.find((known) => known === entry.entity);
  if (kind) return t(`home.activity.kinds.${kind}`);
  return t('home.activity.other', { kind: entry.entity.replaceAll('_', ' ') });
}

/** Whom or what an activity was about: the patient, "no patient" for a record of none, else nothing. */
function activitySubject(entry: AuditEntry, t: TFunction): string | null {
  if (entry.patientName) return entry.patientName;
  return PATIENT_KINDS.includes(entry.entity) ? t('home.activity.noPatient') : null;
}

function RecentActivity({ isDoctor }: { isDoctor: boolean }) {
  const { t } = useTranslation();
  const activity = useRecentActivity(RECENT_ACTIVITY_LIMIT, isDoctor);
  const [now] = useState(() => Date.now());

  let body;
  if (isDoctor && activity.isPending) {
    body = <Spinner label={t('app.loading')} />;
  } else if (isDoctor && activity.isError) {
    body = <p className="muted">{t('home.activityError')}</p>;
  } else if (!activity.data || activity.data.length === 0) {
    body = <EmptyState icon={<Inbox size={28} />} title={t('home.noActivity')} text={t('home.noActivityText')} />;
  } else {
    body = (
      <ul className="activity-list">
        {activity.data.map((entry) => (
          <li key={entry.id}>
            <span className="activity-list__what">{activityLabel(entry, t)}</span>
            {activitySubject(entry, t) ? (
              <>
                <span className="activity-list__meta" aria-hidden="true">
                  ·
                </span>
                <span>{activitySubject(entry, t)}</span>
              </>
            ) : null}
            <span className="activity-list__meta" aria-hidden="true">
              ·
            </span>
            <time className="activity-list__meta" dateTime={entry.at} title={formatDateTime(entry.at)}>
              {formatRelative(entry.at, now)}
            </time>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <section className="section card" aria-labelledby="home-activity">
      <h2 id="home-activity" className="section__title">
        {t('home.activityTitle')}
      </h2>
      {body}
    </section>
  );
}
