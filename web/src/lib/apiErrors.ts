/**
 * Turns a failed patient / screening call into a readable text (spec §8).
 *
 * A 4xx answer shows the server's sentence in the user's language (its `code` and `params`, read in the
 * server's table of error sentences, `crates/server/catalogue`), else its English `detail`; no response at
 * all shows the network message; anything else the caller's fallback.
 */
import i18n, { type TFunction } from 'i18next';
import { ApiError, type CodedError, type ErrorParam, NetworkError } from '../api/client';
import type en from '../i18n/en.json';

/** The code of a sentence the server's table does not list (shown as its English `detail`). */
const UNLISTED = 'unlisted';

/** The keys of the app's own texts for the server's rules it checks before sending (the clinical form). */
export type ServerTextKey = `errors.server.${keyof typeof en.errors.server}`;

/** Renders one hole's value: a phrase, a nested sentence, or the value as written. */
function renderParam(value: ErrorParam, t: TFunction): string {
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if ('term' in value) return t(`serverErrors.terms.${value.term}` as never, { defaultValue: value.term });
  return renderCoded(value, t) ?? '';
}

/** A coded server sentence in the reader's language, or `undefined` when the table lacks its code. */
export function renderCoded(coded: CodedError, t: TFunction): string | undefined {
  const key = `serverErrors.templates.${coded.code}`;
  if (coded.code === UNLISTED || !i18n.exists(key)) return undefined;
  const values = Object.fromEntries(
    Object.entries(coded.params ?? {}).map(([name, value]) => [name, renderParam(value, t)]),
  );
  return t(key as never, values);
}

/**
 * The server's error sentence in the reader's language: from its code and parameters, else its English
 * `detail`, else `fallback`.
 */
export function serverErrorText(error: ApiError, fallback: string, t: TFunction): string {
  return (error.coded && renderCoded(error.coded, t)) ?? error.detail ?? fallback;
}

/** The text for a failed call; `fallback` is already translated. */
export function apiErrorMessage(error: unknown, fallback: string, t: TFunction): string {
  if (error instanceof NetworkError) return t('errors.network');
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.detail) {
    return serverErrorText(error, fallback, t);
  }
  return fallback;
}

/** Whether the server answered 404 (not found, or another doctor's record). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}
