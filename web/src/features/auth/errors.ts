/**
 * Turns a failed sign-in / sign-up into the text for the red banner (spec §8).
 *
 * A 4xx answer shows the server's `detail` (known server texts are shown in the user's language);
 * no response at all shows the network message; anything else the action's fallback.
 */
import type { TFunction } from 'i18next';
import { ApiError, NetworkError } from '../../api/client';

const KNOWN_SERVER_TEXTS = {
  'Invalid email or password. Please try again.': 'errors.server.invalidCredentials',
  'Too many failed attempts. Please try again later.': 'errors.server.tooManyAttempts',
  'An account with this email already exists.': 'errors.server.emailInUse',
  'Invalid email address.': 'errors.server.invalidEmail',
  'Password must be at least 6 characters': 'errors.server.passwordTooShort',
  'Password is too weak. Please use a stronger password.': 'errors.server.weakPassword',
  'This password is one of the most commonly used and easily guessed. Please choose another.':
    'errors.server.commonPassword',
  'Too many accounts were created from this network. Please try again later.': 'errors.server.tooManySignups',
  'No account found with this email.': 'errors.server.userNotFound',
  'Invalid authentication code.': 'twoFactor.invalidCode',
  'Your sign-in has expired. Please sign in again.': 'twoFactor.challengeExpired',
} as const;

function isKnown(text: string): text is keyof typeof KNOWN_SERVER_TEXTS {
  return Object.hasOwn(KNOWN_SERVER_TEXTS, text);
}

export function authErrorMessage(error: unknown, action: 'login' | 'signup', t: TFunction): string {
  if (error instanceof NetworkError) return t('errors.network');
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.detail) {
    return isKnown(error.detail) ? t(KNOWN_SERVER_TEXTS[error.detail]) : error.detail;
  }
  return action === 'login' ? t('errors.loginFailed') : t('errors.signupFailed');
}
