import { ShieldAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from './EmptyState';

/** Shown to `user`-role accounts on the pages that hold patient records (the server answers 403). */
export function DoctorsOnly() {
  const { t } = useTranslation();
  return (
    <div className="card">
      <EmptyState
        icon={<ShieldAlert size={28} />}
        title={t('common.doctorsOnlyTitle')}
        text={t('common.doctorsOnlyText')}
      />
    </div>
  );
}
