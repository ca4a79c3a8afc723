/**
 * Why the browser was sent to the sign-in page: the server ends a session that passed the
 * account's idle timeout (Settings, Session Timeout) and says so once; the sign-in page then tells
 * the person instead of just appearing.
 */
import { ApiError } from '../api/client';

/** The server's answer to a request on a session that passed its idle timeout. */
export const IDLE_SIGN_OUT = 'You were signed out after a period of inactivity.';

const KEY = 'cardio.signedOutIdle';

/** Whether `error` is the server ending an idle session. */
export function isIdleSignOut(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && error.detail === IDLE_SIGN_OUT;
}

/** Remembers (for this tab) that the session ended after inactivity. */
export function rememberIdleSignOut(): void {
  try {
    sessionStorage.setItem(KEY, '1');
  } catch {
    // Storage disabled: the sign-in page simply shows no notice.
  }
}

/** Whether the session ended after inactivity; reading it forgets it. */
export function takeIdleSignOut(): boolean {
  try {
    const idle = sessionStorage.getItem(KEY) === '1';
    sessionStorage.removeItem(KEY);
    return idle;
  } catch {
    return false;
  }
}
