import { useTranslation } from 'react-i18next';
import type { PatientStatus } from '../../api/client';

/** Spec §2: green for active, grey otherwise. */
export function StatusBadge({ status }: { status: PatientStatus }) {
  const { t } = useTranslation();
  return (
    <span className={status === 'active' ? 'badge badge--success' : 'badge badge--muted'}>
      {t(`patients.status.${status}`)}
    </span>
  );
}
