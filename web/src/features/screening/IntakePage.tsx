import { UserPlus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';

export function IntakePage() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <PageHeader title={t('intake.title')} subtitle={t('intake.subtitle')} />
      <div className="card">
        <EmptyState icon={<UserPlus size={28} />} title={t('intake.comingTitle')} text={t('intake.comingText')}>
          <Link to={paths.patients} className="button button--secondary">
            {t('intake.toPatients')}
          </Link>
        </EmptyState>
      </div>
    </div>
  );
}
