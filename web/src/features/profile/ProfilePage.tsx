import { UserRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { useCurrentUser } from '../../lib/session';

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

export function ProfilePage() {
  const { t, i18n } = useTranslation();
  const user = useCurrentUser();
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
          <div>
            <h2 id="profile-name" className="profile-card__name">
              {name}
            </h2>
            <p className="muted">{user.email}</p>
          </div>
        </div>
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
    </div>
  );
}
