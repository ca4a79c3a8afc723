/**
 * The doctor's "Share with patient" card on a patient record: invite the patient's own account,
 * choose reviewed or every result, stop sharing.
 */
import { Share2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Patient, Share } from '../../api/client';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Spinner } from '../../components/Spinner';
import { apiErrorMessage } from '../../lib/apiErrors';
import { formatDay } from '../../lib/format';
import { usePatientShare, useRevokeShare, useSharePatient } from './api/sharing';

export function ShareWithPatient({ patient }: { patient: Patient }) {
  const { t } = useTranslation();
  const share = usePatientShare(patient.id);

  let body;
  if (share.isPending) body = <Spinner label={t('app.loading')} />;
  else if (share.isError) body = <ErrorBanner message={apiErrorMessage(share.error, t('sharing.loadError'), t)} />;
  else if (share.data.current) body = <CurrentShare patientId={patient.id} share={share.data.current} />;
  else body = <InviteForm patientId={patient.id} defaultEmail={patient.email ?? ''} />;

  return (
    <section className="card detail-card share-card" aria-labelledby="patient-sharing">
      <h2 id="patient-sharing" className="section__title">
        <Share2 aria-hidden="true" size={18} /> {t('sharing.title')}
      </h2>
      <p className="muted">{t('sharing.explain')}</p>
      {body}
    </section>
  );
}

function InviteForm({ patientId, defaultEmail }: { patientId: string; defaultEmail: string }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState(defaultEmail);
  const [shareAll, setShareAll] = useState(false);
  const invite = useSharePatient(patientId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate({ email, share_all: shareAll });
  };
  return (
    <form className="share-card__form" onSubmit={submit} noValidate>
      <ErrorBanner message={invite.isError ? apiErrorMessage(invite.error, t('sharing.inviteError'), t) : null} />
      <label className="field">
        <span className="field__label">{t('sharing.email')}</span>
        <input
          className="input"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </label>
      <label className="checkbox">
        <input type="checkbox" checked={shareAll} onChange={(event) => setShareAll(event.target.checked)} />
        {t('sharing.shareAll')}
      </label>
      <div>
        <button type="submit" className="button button--primary" disabled={invite.isPending}>
          {invite.isPending ? t('sharing.inviting') : t('sharing.invite')}
        </button>
      </div>
    </form>
  );
}

function CurrentShare({ patientId, share }: { patientId: string; share: Share }) {
  const { t } = useTranslation();
  const update = useSharePatient(patientId);
  const revoke = useRevokeShare(patientId);
  const status =
    share.status === 'active'
      ? t('sharing.active', { email: share.email, date: formatDay(share.acceptedAt ?? share.createdAt) })
      : t('sharing.invited', { email: share.email, date: formatDay(share.createdAt) });
  const failure = update.isError ? update.error : revoke.isError ? revoke.error : null;
  return (
    <div className="share-card__form">
      <ErrorBanner message={failure ? apiErrorMessage(failure, t('sharing.inviteError'), t) : null} />
      <p role="status">
        <span className={`badge ${share.status === 'active' ? 'badge--success' : 'badge--warning'}`}>
          {t(`sharing.status.${share.status}`)}
        </span>{' '}
        {status}
      </p>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={share.shareAll}
          disabled={update.isPending}
          onChange={(event) => update.mutate({ email: share.email, share_all: event.target.checked })}
        />
        {t('sharing.shareAll')}
      </label>
      <div>
        <button
          type="button"
          className="button button--secondary"
          disabled={revoke.isPending}
          onClick={() => revoke.mutate()}
        >
          {t('sharing.revoke')}
        </button>
      </div>
    </div>
  );
}
