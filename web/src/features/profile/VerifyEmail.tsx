/** The profile's "Verify email" action: sends a verification link to the account's address. */
import { MailCheck } from 'lucide-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { ErrorBanner } from '../../components/ErrorBanner';
import { apiErrorMessage } from '../../lib/apiErrors';

export async function requestEmailVerification(): Promise<void> {
  await unwrap(api.POST('/api/auth/verify-email/request'));
}

export function VerifyEmail({ email }: { email: string }) {
  const { t } = useTranslation();
  const request = useMutation({ mutationFn: requestEmailVerification });
  if (request.isSuccess) {
    return (
      <p className="notice" role="status">
        {t('account.verificationSent', { email })}
      </p>
    );
  }
  return (
    <div className="verify-email">
      <span className="badge badge--muted">{t('account.notVerified')}</span>
      <button
        type="button"
        className="button button--secondary button--small"
        onClick={() => request.mutate()}
        disabled={request.isPending}
      >
        <MailCheck aria-hidden="true" size={14} />
        {request.isPending ? t('account.sending') : t('account.verifyEmail')}
      </button>
      <ErrorBanner message={request.isError ? apiErrorMessage(request.error, t('account.requestFailed'), t) : null} />
    </div>
  );
}
