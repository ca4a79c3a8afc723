import {
  Activity,
  ClipboardList,
  Cpu,
  FileText,
  House,
  LogOut,
  Menu,
  Settings,
  UserRound,
  Users,
  X,
  type LucideIcon,
} from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useNavigate } from 'react-router';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Logo } from '../../components/Logo';
import { PreferenceControls } from '../../components/PreferenceControls';
import { useLogout } from '../../features/auth';
import { NotificationsButton } from '../../features/notifications/NotificationsButton';
import { useApplyServerSettings, useSaveSettings } from '../../features/settings';
import { displayNameOf, useCurrentUser } from '../../lib/session';
import { paths } from '../paths';

interface NavEntry {
  to: string;
  label: 'home' | 'patients' | 'startAnalysis' | 'testResults' | 'reports' | 'devices' | 'profile' | 'settings';
  icon: LucideIcon;
  /** Pages of patient records and their work: not shown to a patient (`user`) account. */
  doctorsOnly?: boolean;
}

/** Sidebar entries, in the spec's order (§2). */
const NAV: NavEntry[] = [
  { to: paths.home, label: 'home', icon: House },
  { to: paths.patients, label: 'patients', doctorsOnly: true, icon: Users },
  { to: paths.intake, label: 'startAnalysis', doctorsOnly: true, icon: Activity },
  { to: paths.testResults, label: 'testResults', icon: ClipboardList },
  { to: paths.reports, label: 'reports', doctorsOnly: true, icon: FileText },
  { to: paths.devices, label: 'devices', doctorsOnly: true, icon: Cpu },
  { to: paths.profile, label: 'profile', icon: UserRound },
  { to: paths.settings, label: 'settings', icon: Settings },
];

/** The signed-in shell: sidebar with navigation, the user, preferences and logout. */
export function AppLayout() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const logout = useLogout({ onSignedOut: () => void navigate(paths.login, { replace: true }) });
  // Signed in, the theme and language are the account's: applied from and saved to the server.
  useApplyServerSettings();
  const saveSettings = useSaveSettings();

  return (
    <div className={`app-shell${menuOpen ? ' app-shell--menu-open' : ''}`}>
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <header className="mobile-bar">
        <Logo />
        <button
          type="button"
          className="icon-button"
          aria-expanded={menuOpen}
          aria-controls="sidebar"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <X aria-hidden="true" size={22} /> : <Menu aria-hidden="true" size={22} />}
          <span className="visually-hidden">{menuOpen ? t('nav.closeMenu') : t('nav.openMenu')}</span>
        </button>
      </header>
      <aside id="sidebar" className="sidebar">
        <div className="sidebar__inner">
          <div className="sidebar__brand">
            <Logo />
            <span className="sidebar__tagline">{t('app.tagline')}</span>
          </div>
          <nav className="sidebar__nav" aria-label={t('nav.main')}>
            <ul>
              {NAV.filter((entry) => user.role === 'doctor' || !entry.doctorsOnly).map(({ to, label, icon: Icon }) => (
                <li key={to}>
                  <NavLink to={to} className="sidebar__link" onClick={() => setMenuOpen(false)}>
                    <Icon aria-hidden="true" size={20} />
                    <span>{t(`nav.${label}`)}</span>
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          {/* A patient account has no notifications, unless it is an administrator (server-wide changes). */}
          {user.role === 'doctor' || user.isAdmin ? <NotificationsButton /> : null}
          <div className="sidebar__footer">
            <PreferenceControls
              className="preferences--stacked"
              onThemeChange={(theme) => saveSettings.mutate({ theme })}
              onLanguageChange={(language) => saveSettings.mutate({ language })}
            />
            {saveSettings.isError ? <ErrorBanner message={t('settings.saveFailed')} /> : null}
            <div className="sidebar__user">
              <span className="avatar" aria-hidden="true">
                <UserRound size={18} />
              </span>
              <div className="sidebar__user-text">
                <span className="visually-hidden">{t('nav.signedInAs')}</span>
                <span className="sidebar__user-name">{displayNameOf(user)}</span>
                <span className="sidebar__user-email">{user.email}</span>
              </div>
            </div>
            {logout.isError ? <ErrorBanner message={t('errors.logoutFailed')} /> : null}
            <button
              type="button"
              className="button button--ghost button--block sidebar__logout"
              onClick={() => logout.mutate()}
              disabled={logout.isPending}
            >
              <LogOut aria-hidden="true" size={18} />
              {logout.isPending ? t('nav.loggingOut') : t('nav.logout')}
            </button>
          </div>
        </div>
      </aside>
      <main id="main" tabIndex={-1} className="app-main">
        <Outlet />
      </main>
    </div>
  );
}
