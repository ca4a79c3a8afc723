/**
 * Turns a failed sign-in / sign-up into the text for the red banner (spec §8).
 *
 * A 4xx answer shows the server's sentence in the user's language (`lib/apiErrors`);
 * no response at all shows the network message; anything else the action's fallback.
 */
import type { TFunction } from 'i18next';
import { ApiError, NetworkError } from '../../api/client';
import { serverErrorText } from '../../lib/apiErrors';

export function authErrorMessage(error: unknown, action: 'login' | 'signup', t: TFunction): string {
  if (error instanceof NetworkError) return t('errors.network');
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.detail) {
    return serverErrorText(error, error.detail, t);
  }
  return action === 'login' ? t('errors.loginFailed') : t('errors.signupFailed');
}
