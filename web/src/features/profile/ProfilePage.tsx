import { Activity, BadgeCheck, KeyRound, Pencil, UserRound, Users, Waves } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBanner } from '../../components/ErrorBanner';
import { PageHeader } from '../../components/PageHeader';
import { StatGrid } from '../../components/StatGrid';
import { Spinner } from '../../components/Spinner';
import { apiErrorMessage } from '../../lib/apiErrors';
import { checkNewPassword, type PasswordProblem } from '../../lib/passwordRules';
import { useCurrentUser } from '../../lib/session';
import { useChangePassword, useProfileActivity, useUpdateDisplayName } from './api';
import { TwoFactorSection } from './TwoFactorSection';
import { VerifyEmail } from './VerifyEmail';

/** Longest display name the server accepts. */
export const MAX_DISPLAY_NAME_LENGTH = 100;

function formatDate(
  value: string | null | undefined,
  locale: string,
  options: Intl.DateTimeFormatOptions,
): string | null {
  if (!value) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return new Intl.DateTimeFormat(locale, options).format(date);
}

type NameProblem = 'profile.nameRequired' | 'profile.nameTooLong';

export function checkDisplayName(name: string): NameProblem | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'profile.nameRequired';
  if ([...trimmed].length > MAX_DISPLAY_NAME_LENGTH) return 'profile.nameTooLong';
  return null;
}

function EditProfileForm({ initial, onDone }: { initial: string; onDone: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const update = useUpdateDisplayName();
  const [name, setName] = useState(initial);
  const [problem, setProblem] = useState<NameProblem | null>(null);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = checkDisplayName(name);
    setProblem(found);
    if (found) {
      update.reset();
      return;
    }
    update.mutate(name.trim(), { onSuccess: onDone });
  };

  const error = problem ? t(problem) : update.isError ? apiErrorMessage(update.error, t('errors.saveFailed'), t) : null;
  return (
    <form className="form" onSubmit={onSubmit} aria-label={t('profile.editProfile')}>
      <ErrorBanner message={error} />
      <div className="field">
        <label className="field__label" htmlFor={id}>
          {t('profile.displayName')}
        </label>
        <input
          id={id}
          className="input"
          type="text"
          autoComplete="name"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      <div className="form-actions">
        <button type="button" className="button button--ghost" onClick={onDone} disabled={update.isPending}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="button button--primary" disabled={update.isPending}>
          {update.isPending ? t('common.saving') : t('common.save')}
        </button>
      </div>
    </form>
  );
}

function ChangePasswordForm() {
  const { t } = useTranslation();
  const id = useId();
  const change = useChangePassword();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<PasswordProblem | null>(null);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = checkNewPassword(next, confirm);
    setProblem(found);
    if (found) {
      change.reset();
      return;
    }
    change.mutate(
      { currentPassword: current, newPassword: next },
      {
        onSuccess: () => {
          setCurrent('');
          setNext('');
          setConfirm('');
        },
      },
    );
  };

  const error = problem
    ? t(problem)
    : change.isError
      ? apiErrorMessage(change.error, t('profile.passwordChangeFailed'), t)
      : null;
  const field = (key: string, label: string, value: string, set: (v: string) => void, autoComplete: string) => (
    <div className="field">
      <label className="field__label" htmlFor={`${id}-${key}`}>
        {label}
      </label>
      <input
        id={`${id}-${key}`}
        className="input"
        type="password"
        autoComplete={autoComplete}
        required
        value={value}
        onChange={(event) => set(event.target.value)}
      />
    </div>
  );
  return (
    <form className="form" onSubmit={onSubmit} aria-labelledby="profile-password">
      <h3 id="profile-password" className="form-section__title">
        {t('profile.changePassword')}
      </h3>
      <ErrorBanner message={error} />
      {change.isSuccess ? (
        <p className="notice" role="status">
          {t('profile.passwordChanged')}
        </p>
      ) : null}
      {field('current', t('profile.currentPassword'), current, setCurrent, 'current-password')}
      {field('new', t('profile.newPassword'), next, setNext, 'new-password')}
      {field('confirm', t('profile.confirmPassword'), confirm, setConfirm, 'new-password')}
      <div className="form-actions">
        <button type="submit" className="button button--primary" disabled={change.isPending}>
          {change.isPending ? t('profile.changingPassword') : t('profile.changePassword')}
        </button>
      </div>
    </form>
  );
}

function ActivityStats() {
  const { t } = useTranslation();
  const activity = useProfileActivity();
  if (activity.isPending) return <Spinner label={t('app.loading')} />;
  if (activity.isError) return <p className="muted">{t('profile.activityError')}</p>;
  const stats = [
    { key: 'patients', value: activity.data.patients, icon: <Users size={24} /> },
    { key: 'screenings', value: activity.data.screenings, icon: <Activity size={24} /> },
    { key: 'analyses', value: activity.data.analyses, icon: <Waves size={24} /> },
    { key: 'reviews', value: activity.data.reviews, icon: <BadgeCheck size={24} /> },
  ] as const;
  return <StatGrid stats={stats.map((stat) => ({ ...stat, label: t(`profile.stats.${stat.key}`) }))} />;
}

export function ProfilePage() {
  const { t, i18n } = useTranslation();
  const user = useCurrentUser();
  const [editing, setEditing] = useState(false);
  const name = user.displayName.trim() || t('profile.fallbackName');
  const locale = i18n.resolvedLanguage ?? i18n.language;
  const memberSince = formatDate(user.createdAt, locale, { year: 'numeric', month: 'long', day: 'numeric' });
  const lastLogin = formatDate(user.lastLoginAt, locale, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <div className="page">
      <PageHeader title={t('profile.title')} subtitle={t('profile.subtitle')} />
      <section className="card profile-card" aria-labelledby="profile-name">
        <div className="profile-card__head">
          <span className="avatar avatar--large" aria-hidden="true">
            <UserRound size={32} />
          </span>
          <div className="profile-card__identity">
            <h2 id="profile-name" className="profile-card__name">
              {name}
            </h2>
            <p className="muted profile-card__email">{user.email}</p>
            {user.emailVerified ? (
              <span className="badge badge--success">
                <BadgeCheck aria-hidden="true" size={14} />
                {t('profile.verified')}
              </span>
            ) : (
              <VerifyEmail email={user.email} />
            )}
          </div>
          {editing ? null : (
            <button
              type="button"
              className="button button--secondary profile-card__edit"
              onClick={() => setEditing(true)}
            >
              <Pencil aria-hidden="true" size={16} />
              {t('profile.editProfile')}
            </button>
          )}
        </div>
        {editing ? <EditProfileForm initial={user.displayName} onDone={() => setEditing(false)} /> : null}
        <dl className="details">
          <div>
            <dt>{t('profile.email')}</dt>
            <dd>{user.email}</dd>
          </div>
          <div>
            <dt>{t('profile.role')}</dt>
            <dd>{t(`roles.label.${user.role}`)}</dd>
          </div>
          <div>
            <dt>{t('profile.memberSince')}</dt>
            <dd>{memberSince ?? '—'}</dd>
          </div>
          <div>
            <dt>{t('profile.lastLogin')}</dt>
            <dd>{lastLogin ?? t('profile.never')}</dd>
          </div>
        </dl>
      </section>
      {/* Patients, screenings, analyses and reviews are a doctor's figures. */}
      {user.role === 'doctor' ? (
        <section className="section" aria-labelledby="profile-activity">
          <h2 id="profile-activity" className="section__title">
            {t('profile.activity')}
          </h2>
          <ActivityStats />
        </section>
      ) : null}
      <section className="card settings-section" aria-labelledby="profile-security">
        <h2 id="profile-security" className="section__title">
          <KeyRound aria-hidden="true" size={18} /> {t('profile.security')}
        </h2>
        <ChangePasswordForm />
        <TwoFactorSection enabled={user.twoFactorEnabled} />
      </section>
    </div>
  );
}
