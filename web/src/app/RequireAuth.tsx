import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { EmptyState } from '../components/EmptyState';
import { Spinner } from '../components/Spinner';
import { useMe } from '../features/auth';
import { CurrentUserProvider } from '../lib/session';
import { paths } from './paths';

/**
 * The sign-in guard (spec §2): a spinner while the session is checked, the login page (remembering
 * where the user wanted to go) when signed out, the protected pages with the user otherwise.
 */
export function RequireAuth() {
  const { t } = useTranslation();
  const location = useLocation();
  const me = useMe();

  if (me.isPending) {
    return (
      <div className="center-screen">
        <Spinner label={t('app.loading')} />
      </div>
    );
  }

  if (me.isError) {
    return (
      <div className="center-screen">
        <div className="card">
          <EmptyState title={t('guard.errorTitle')} text={t('guard.errorText')}>
            <button type="button" className="button button--primary" onClick={() => void me.refetch()}>
              {t('guard.retry')}
            </button>
          </EmptyState>
        </div>
      </div>
    );
  }

  if (!me.data) {
    const from = { pathname: location.pathname, search: location.search, hash: location.hash };
    return <Navigate to={paths.login} replace state={{ from }} />;
  }

  return (
    <CurrentUserProvider user={me.data}>
      <Outlet />
    </CurrentUserProvider>
  );
}
