import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { paths } from '../../app/paths';
import { ErrorBanner } from '../../components/ErrorBanner';
import { isChallenge, useLogin, useLoginWithCode, useMe } from './api';
import { AuthCard } from './components/AuthCard';
import { authErrorMessage } from './errors';
import { readAuthState, returnPath } from './navigation';
import { takeIdleSignOut } from '../../lib/signedOut';

/** The second step of a two-factor sign-in: a code from the app, or a recovery code. */
function CodeStep({
  challenge,
  onSignedIn,
  onBack,
}: {
  challenge: string;
  onSignedIn: () => void;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const verify = useLoginWithCode();
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    verify.mutate({ challenge, code: code.trim() }, { onSuccess: onSignedIn });
  };
  const toggle = () => {
    setUseRecovery((value) => !value);
    setCode('');
    verify.reset();
  };
  const error = verify.isError ? authErrorMessage(verify.error, 'login', t) : null;

  return (
    <AuthCard
      title={t('twoFactor.title')}
      subtitle={useRecovery ? t('twoFactor.recoverySubtitle') : t('twoFactor.stepSubtitle')}
    >
      <ErrorBanner message={error} />
      <form className="form" onSubmit={onSubmit}>
        <div className="field">
          <label className="field__label" htmlFor="login-code">
            {useRecovery ? t('twoFactor.recoveryCode') : t('twoFactor.code')}
          </label>
          {useRecovery ? (
            <input
              id="login-code"
              key="recovery"
              className="input"
              type="text"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              required
              autoFocus
              value={code}
              onChange={(event) => setCode(event.target.value)}
            />
          ) : (
            <input
              id="login-code"
              key="app"
              className="input"
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              required
              autoFocus
              value={code}
              onChange={(event) => setCode(event.target.value)}
            />
          )}
        </div>
        <button type="submit" className="button button--primary button--block" disabled={verify.isPending}>
          {verify.isPending ? t('twoFactor.verifying') : t('twoFactor.verify')}
        </button>
      </form>
      <p className="auth-card__footer">
        <button type="button" className="link-button" onClick={toggle}>
          {useRecovery ? t('twoFactor.useApp') : t('twoFactor.useRecovery')}
        </button>
      </p>
      <p className="auth-card__footer">
        <button type="button" className="link-button" onClick={onBack}>
          {t('twoFactor.back')}
        </button>
      </p>
    </AuthCard>
  );
}

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
  const [challenge, setChallenge] = useState<string | null>(null);
  const [idle] = useState(takeIdleSignOut);

  const goOn = () => void navigate(target, { replace: true });

  if (me.data && !login.isPending && !login.isSuccess) {
    return <Navigate to={target} replace />;
  }

  if (challenge) {
    return (
      <CodeStep
        challenge={challenge}
        onSignedIn={goOn}
        onBack={() => {
          setChallenge(null);
          setPassword('');
          login.reset();
        }}
      />
    );
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    login.mutate(
      { email: email.trim(), password },
      {
        onSuccess: (response) => {
          if (isChallenge(response)) setChallenge(response.challenge);
          else goOn();
        },
      },
    );
  };

  const error = login.isError ? authErrorMessage(login.error, 'login', t) : null;

  return (
    <AuthCard title={t('login.title')} subtitle={t('login.subtitle')}>
      {idle && !error ? (
        <p className="notice" role="status">
          {t('login.idleSignedOut')}
        </p>
      ) : null}
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
        <p className="auth-card__row">
          <Link to={paths.forgotPassword}>{t('account.forgotPassword')}</Link>
        </p>
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
