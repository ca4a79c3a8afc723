import { HeartPulse } from 'lucide-react';
import { useTranslation } from 'react-i18next';

export function Logo() {
  const { t } = useTranslation();
  return (
    <span className="logo">
      <HeartPulse className="logo__icon" aria-hidden="true" size={26} />
      <span className="logo__name">{t('app.name')}</span>
    </span>
  );
}
