import { CircleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { EmptyState } from '../../components/EmptyState';

/** Shown when a workflow step is opened without a screening in progress. */
export function MissingSession({ title, text }: { title: string; text: string }) {
  const { t } = useTranslation();
  return (
    <div className="card">
      <EmptyState icon={<CircleAlert size={28} />} title={title} text={text}>
        <Link to={paths.intake} className="button button--primary">
          {t('common.goToIntake')}
        </Link>
      </EmptyState>
    </div>
  );
}
