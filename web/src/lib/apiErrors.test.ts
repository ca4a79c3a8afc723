import { afterEach, describe, expect, it } from 'vitest';
import i18n from '../i18n';
import { ApiError, errorCode, NetworkError } from '../api/client';
import { apiErrorMessage, serverErrorText } from './apiErrors';
import { predictionErrorMessage } from './prediction';

/** Error bodies as the server sends them (`crates/server/src/platform/error_codes.rs`). */
const FILE_TOO_LARGE = {
  detail: 'File too large: the limit is 50 MB.',
  code: 'file_too_large',
  params: { mb: '50' },
};
const FIRST_NAME_REQUIRED = {
  detail: 'First name is required.',
  code: 'field_required',
  params: { label: { term: 'first_name' } },
};
const CSV_UNREADABLE = {
  detail: 'Cannot read the file: invalid CSV file: no rows of numbers',
  code: 'file_unreadable',
  params: {
    reason: { code: 'format_invalid', params: { format: 'CSV', reason: { code: 'reader_no_rows', params: {} } } },
  },
};

function failure(status: number, body: { detail: string; code?: string; params?: object }): ApiError {
  return new ApiError(status, body.detail, errorCode(body));
}

describe('server error sentences', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('are shown in the reader language from their code, holes and nested sentences included', async () => {
    await i18n.changeLanguage('es');
    const t = i18n.t;
    expect(serverErrorText(failure(413, FILE_TOO_LARGE), 'fallback', t)).toBe(
      'Archivo demasiado grande: el límite es de 50 MB.',
    );
    expect(apiErrorMessage(failure(422, FIRST_NAME_REQUIRED), 'fallback', t)).toBe('Nombre: campo obligatorio.');
    expect(predictionErrorMessage(failure(422, CSV_UNREADABLE), 'ppg', t)).toBe(
      'Error de validación: No se puede leer el archivo: archivo CSV no válido: ninguna fila de números',
    );
    await i18n.changeLanguage('fr');
    expect(serverErrorText(failure(422, CSV_UNREADABLE), 'fallback', i18n.t)).toBe(
      'Impossible de lire le fichier : fichier CSV invalide : aucune ligne de nombres',
    );
  });

  it('keep the English detail when the code is unlisted or unknown, and the fallback without a detail', async () => {
    await i18n.changeLanguage('fr');
    const t = i18n.t;
    const unlisted = failure(422, { detail: 'Something new.', code: 'unlisted', params: {} });
    expect(serverErrorText(unlisted, 'fallback', t)).toBe('Something new.');
    const unknown = failure(422, { detail: 'From a newer server.', code: 'no_such_code' });
    expect(serverErrorText(unknown, 'fallback', t)).toBe('From a newer server.');
    expect(serverErrorText(new ApiError(500, undefined), 'fallback', t)).toBe('fallback');
    expect(apiErrorMessage(new NetworkError(new TypeError('x')), 'fallback', t)).toBe(t('errors.network'));
  });

  it('read no code from a body without one', () => {
    expect(errorCode({ detail: 'x' })).toBeUndefined();
    expect(errorCode(null)).toBeUndefined();
    expect(errorCode({ detail: 'x', code: 'a', params: [1] })).toEqual({ code: 'a', params: {} });
  });
});
