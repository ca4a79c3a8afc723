import { useTranslation } from 'react-i18next';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Spinner } from '../../components/Spinner';
import { apiErrorMessage } from '../../lib/apiErrors';

/** Loading, or failing for another reason than "no such screening" (that one is MissingSession). */
export function ScreeningState({ error, onRetry }: { error?: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  if (!error) {
    return (
      <div className="card list-state">
        <Spinner label={t('sensor.loading')} />
      </div>
    );
  }
  return (
    <div className="card">
      <ErrorBanner message={apiErrorMessage(error, t('errors.loadFailed'), t)} />
      <button type="button" className="button button--primary" onClick={onRetry}>
        {t('common.tryAgain')}
      </button>
    </div>
  );
}
