import { FileText } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';

export function ReportsPage() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <PageHeader title={t('reports.title')} subtitle={t('reports.subtitle')} />
      <div className="card">
        <EmptyState icon={<FileText size={28} />} title={t('reports.emptyTitle')} text={t('reports.emptyText')} />
      </div>
    </div>
  );
}
