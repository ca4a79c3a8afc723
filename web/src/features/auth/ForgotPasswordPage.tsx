import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { ErrorBanner } from '../../components/ErrorBanner';
import { apiErrorMessage } from '../../lib/apiErrors';
import { useRequestPasswordReset } from './api';
import { AuthCard } from './components/AuthCard';

/** "Forgot password?": asks for a reset link by email. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const request = useRequestPasswordReset();
  const [email, setEmail] = useState('');

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    request.mutate(email.trim());
  };
  const error = request.isError ? apiErrorMessage(request.error, t('account.requestFailed'), t) : null;

  return (
    <AuthCard title={t('account.forgotTitle')} subtitle={t('account.forgotSubtitle')}>
      {request.isSuccess ? (
        <p className="notice" role="status">
          {t('account.forgotSent')}
        </p>
      ) : (
        <>
          <ErrorBanner message={error} />
          <form className="form" onSubmit={onSubmit}>
            <div className="field">
              <label className="field__label" htmlFor="forgot-email">
                {t('account.email')}
              </label>
              <input
                id="forgot-email"
                className="input"
                type="email"
                autoComplete="email"
                placeholder={t('login.emailPlaceholder')}
                required
                value={email}
                onChange={(event) => setEmail(event.target.value)}
              />
            </div>
            <button type="submit" className="button button--primary button--block" disabled={request.isPending}>
              {request.isPending ? t('account.sending') : t('account.sendLink')}
            </button>
          </form>
        </>
      )}
      <p className="auth-card__footer">
        <Link to={paths.login}>{t('account.backToLogin')}</Link>
      </p>
    </AuthCard>
  );
}
