import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { Logo } from '../../components/Logo';
import { PreferenceControls } from '../../components/PreferenceControls';
import { paths } from '../paths';

/** Shell of the public pages: a slim top bar with the logo, theme and language. */
export function PublicLayout({ centered = false }: { centered?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="public-shell">
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <header className="topbar">
        <Link to={paths.welcome} className="topbar__brand" aria-label={t('app.name')}>
          <Logo />
        </Link>
        <PreferenceControls />
      </header>
      <main id="main" tabIndex={-1} className={centered ? 'public-main public-main--centered' : 'public-main'}>
        <Outlet />
      </main>
    </div>
  );
}
