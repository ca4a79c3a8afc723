import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { paths } from '../../app/paths';
import { ErrorBanner } from '../../components/ErrorBanner';
import { useLogin, useMe } from './api';
import { AuthCard } from './components/AuthCard';
import { authErrorMessage } from './errors';
import { readAuthState, returnPath } from './navigation';

export function LoginPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const state = readAuthState(location.state);
  const target = returnPath(state, paths.home);
  const me = useMe();
  const login = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  if (me.data && !login.isPending && !login.isSuccess) {
    return <Navigate to={target} replace />;
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    login.mutate({ email: email.trim(), password }, { onSuccess: () => void navigate(target, { replace: true }) });
  };

  const error = login.isError ? authErrorMessage(login.error, 'login', t) : null;

  return (
    <AuthCard title={t('login.title')} subtitle={t('login.subtitle')}>
      <ErrorBanner message={error} />
      <form className="form" onSubmit={onSubmit}>
        <div className="field">
          <label className="field__label" htmlFor="login-email">
            {t('login.email')}
          </label>
          <input
            id="login-email"
            className="input"
            type="email"
            name="email"
            autoComplete="email"
            placeholder={t('login.emailPlaceholder')}
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="login-password">
            {t('login.password')}
          </label>
          <input
            id="login-password"
            className="input"
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </div>
        <button type="submit" className="button button--primary button--block" disabled={login.isPending}>
          {login.isPending ? t('login.submitting') : t('login.submit')}
        </button>
      </form>
      <p className="auth-card__footer">
        {t('login.noAccount')}{' '}
        <Link to={paths.signup} state={state.role ? { role: state.role } : undefined}>
          {t('login.toSignup')}
        </Link>
      </p>
      <p className="auth-card__footer">
        <Link to={paths.roleSelection}>{t('login.chooseRole')}</Link>
      </p>
    </AuthCard>
  );
}
