import { Plus, Search, Users } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';

export function PatientsPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  return (
    <div className="page">
      <PageHeader
        title={t('patients.title')}
        subtitle={t('patients.subtitle')}
        actions={
          <Link to={paths.intake} className="button button--primary">
            <Plus aria-hidden="true" size={18} />
            {t('patients.add')}
          </Link>
        }
      />
      <div className="card">
        <div className="search">
          <label htmlFor="patient-search" className="visually-hidden">
            {t('patients.searchLabel')}
          </label>
          <Search className="search__icon" aria-hidden="true" size={18} />
          <input
            id="patient-search"
            className="input search__input"
            type="search"
            placeholder={t('patients.searchPlaceholder')}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
        <EmptyState icon={<Users size={28} />} title={t('patients.empty')} />
      </div>
    </div>
  );
}
