import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { ErrorBanner } from '../../components/ErrorBanner';
import { apiErrorMessage } from '../../lib/apiErrors';
import { checkNewPassword, type PasswordProblem } from '../../lib/passwordRules';
import { useResetPassword } from './api';
import { AuthCard } from './components/AuthCard';

/** The page a reset link opens: `/reset-password?token=...`; sets a new password. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const reset = useResetPassword();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<PasswordProblem | null>(null);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = checkNewPassword(password, confirm);
    setProblem(found);
    if (found) {
      reset.reset();
      return;
    }
    reset.mutate({ token, newPassword: password });
  };

  const error = problem ? t(problem) : reset.isError ? apiErrorMessage(reset.error, t('account.resetFailed'), t) : null;

  let body;
  if (!token) {
    body = <ErrorBanner message={t('account.missingToken')} />;
  } else if (reset.isSuccess) {
    body = (
      <p className="notice" role="status">
        {t('account.resetDone')}
      </p>
    );
  } else {
    body = (
      <>
        <ErrorBanner message={error} />
        <form className="form" onSubmit={onSubmit}>
          <div className="field">
            <label className="field__label" htmlFor="reset-password">
              {t('account.newPassword')}
            </label>
            <input
              id="reset-password"
              className="input"
              type="password"
              autoComplete="new-password"
              placeholder={t('signup.passwordPlaceholder')}
              required
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </div>
          <div className="field">
            <label className="field__label" htmlFor="reset-confirm">
              {t('account.confirmPassword')}
            </label>
            <input
              id="reset-confirm"
              className="input"
              type="password"
              autoComplete="new-password"
              required
              value={confirm}
              onChange={(event) => setConfirm(event.target.value)}
            />
          </div>
          <button type="submit" className="button button--primary button--block" disabled={reset.isPending}>
            {reset.isPending ? t('account.resetting') : t('account.resetSubmit')}
          </button>
        </form>
      </>
    );
  }

  return (
    <AuthCard title={t('account.resetTitle')} subtitle={t('account.resetSubtitle')}>
      {body}
      <p className="auth-card__footer">
        <Link to={paths.login}>{t('account.backToLogin')}</Link>
      </p>
    </AuthCard>
  );
}
