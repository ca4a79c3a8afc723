import { ClipboardList } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';

const FILTERS = ['all', 'pcg', 'ppg', 'ecg'] as const;
type Filter = (typeof FILTERS)[number];

export function TestResultsPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<Filter>('all');
  return (
    <div className="page">
      <PageHeader title={t('testResults.title')} subtitle={t('testResults.subtitle')} />
      <div className="filter-bar" role="group" aria-label={t('testResults.filterLabel')}>
        {FILTERS.map((value) => (
          <button
            key={value}
            type="button"
            className={`chip${filter === value ? ' chip--active' : ''}`}
            aria-pressed={filter === value}
            onClick={() => setFilter(value)}
          >
            {t(`testResults.${value}`)}
          </button>
        ))}
      </div>
      <div className="card">
        <EmptyState
          icon={<ClipboardList size={28} />}
          title={t('testResults.emptyTitle')}
          text={t('testResults.emptyText')}
        />
      </div>
    </div>
  );
}
