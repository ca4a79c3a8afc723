import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Spinner } from '../../components/Spinner';
import { apiErrorMessage } from '../../lib/apiErrors';
import { useMe, useVerifyEmail } from './api';
import { AuthCard } from './components/AuthCard';

/** The page a verification link opens: `/verify-email?token=...`; verifies once, on arrival. */
export function VerifyEmailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const me = useMe();
  const verify = useVerifyEmail();
  const sent = useRef(false);
  const { mutate } = verify;

  useEffect(() => {
    // Once per page (React's development double effects must not use the token twice).
    if (!token || sent.current) return;
    sent.current = true;
    mutate(token);
  }, [token, mutate]);

  let body;
  if (!token) body = <ErrorBanner message={t('account.missingToken')} />;
  else if (verify.isSuccess)
    body = (
      <p className="notice" role="status">
        {t('account.verified')}
      </p>
    );
  else if (verify.isError) body = <ErrorBanner message={apiErrorMessage(verify.error, t('account.verifyFailed'), t)} />;
  else body = <Spinner label={t('account.verifyingEmail')} />;

  return (
    <AuthCard title={t('account.verifyTitle')}>
      {body}
      <p className="auth-card__footer">
        <Link to={me.data ? paths.profile : paths.login}>{t('account.continue')}</Link>
      </p>
    </AuthCard>
  );
}
