import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { paths } from '../../app/paths';
import { ErrorBanner } from '../../components/ErrorBanner';
import { checkNewPassword, type PasswordProblem } from '../../lib/passwordRules';
import { useSignup } from './api';
import { AuthCard } from './components/AuthCard';
import { authErrorMessage } from './errors';
import { readAuthState } from './navigation';

type ClientError = PasswordProblem;

/** Spec §5: the checks run in this order and the first failure is shown. */
export const checkSignup = checkNewPassword;

export function SignupPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const role = readAuthState(location.state).role ?? 'doctor';
  const signup = useSignup();
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [clientError, setClientError] = useState<ClientError | null>(null);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = checkSignup(password, confirmPassword);
    setClientError(problem);
    if (problem) {
      signup.reset();
      return;
    }
    signup.mutate(
      { full_name: fullName.trim(), email: email.trim(), password, role },
      { onSuccess: () => void navigate(paths.home, { replace: true }) },
    );
  };

  const error = clientError ? t(clientError) : signup.isError ? authErrorMessage(signup.error, 'signup', t) : null;

  return (
    <AuthCard title={t('signup.title')} subtitle={t('signup.subtitle')}>
      <p className="role-chip">
        <span>
          {t('signup.roleLabel')}: <strong>{t(`roles.${role}.title`)}</strong>
        </span>
        <Link to={paths.roleSelection}>{t('signup.changeRole')}</Link>
      </p>
      <ErrorBanner message={error} />
      <form className="form" onSubmit={onSubmit}>
        <div className="field">
          <label className="field__label" htmlFor="signup-name">
            {t('signup.fullName')}
          </label>
          <input
            id="signup-name"
            className="input"
            type="text"
            name="fullName"
            autoComplete="name"
            required
            value={fullName}
            onChange={(event) => setFullName(event.target.value)}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="signup-email">
            {t('signup.email')}
          </label>
          <input
            id="signup-email"
            className="input"
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="signup-password">
            {t('signup.password')}
          </label>
          <input
            id="signup-password"
            className="input"
            type="password"
            name="password"
            autoComplete="new-password"
            placeholder={t('signup.passwordPlaceholder')}
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="signup-confirm">
            {t('signup.confirmPassword')}
          </label>
          <input
            id="signup-confirm"
            className="input"
            type="password"
            name="confirmPassword"
            autoComplete="new-password"
            required
            value={confirmPassword}
            onChange={(event) => setConfirmPassword(event.target.value)}
          />
        </div>
        <button type="submit" className="button button--primary button--block" disabled={signup.isPending}>
          {signup.isPending ? t('signup.submitting') : t('signup.submit')}
        </button>
      </form>
      <p className="auth-card__footer">
        {t('signup.haveAccount')}{' '}
        <Link to={paths.login} state={{ role }}>
          {t('signup.toLogin')}
        </Link>
      </p>
    </AuthCard>
  );
}
