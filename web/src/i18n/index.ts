/**
 * i18next set-up: English, Spanish and French catalogues bundled with the app, with the models'
 * catalogue (`crates/models/catalogue`, shared with the server's PDF reports) under `content`, and the
 * server's error sentences (`crates/server/catalogue`) under `serverErrors`.
 *
 * The language is the user's choice in localStorage (`cardio.language`), else the browser's language
 * (es* → es, fr* → fr, anything else → en). <html lang> always follows the active language.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readStorage, writeStorage } from '../lib/storage';
// The models' findings and recommendations: the catalogue the server's reports read too.
import contentEn from '../../../crates/models/catalogue/en.json';
import contentEs from '../../../crates/models/catalogue/es.json';
import contentFr from '../../../crates/models/catalogue/fr.json';
// The server's error sentences by code (`code`, `params` of every error body).
import serverErrorsEn from '../../../crates/server/catalogue/en.json';
import serverErrorsEs from '../../../crates/server/catalogue/es.json';
import serverErrorsFr from '../../../crates/server/catalogue/fr.json';
import en from './en.json';
import es from './es.json';
import fr from './fr.json';

export const LANGUAGE_STORAGE_KEY = 'cardio.language';
export const SUPPORTED_LANGUAGES = ['en', 'es', 'fr'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];

/**
 * Each language: the app's own texts, under `content` the models' (findings, advice), and under
 * `serverErrors` the server's error sentences.
 */
export const resources = {
  en: { translation: { ...en, content: contentEn, serverErrors: serverErrorsEn } },
  es: { translation: { ...es, content: contentEs, serverErrors: serverErrorsEs } },
  fr: { translation: { ...fr, content: contentFr, serverErrors: serverErrorsFr } },
} as const;

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

/** Maps a BCP 47 tag (navigator.language) to a supported language. */
export function languageFromTag(tag: string | undefined | null): Language {
  const primary = (tag ?? '').toLowerCase().split(/[-_]/)[0];
  return isLanguage(primary) ? primary : 'en';
}

export function detectLanguage(): Language {
  const stored = readStorage(LANGUAGE_STORAGE_KEY);
  if (isLanguage(stored)) return stored;
  return languageFromTag(typeof navigator === 'undefined' ? undefined : navigator.language);
}

/** Switches the UI language and remembers the choice. */
export async function changeLanguage(language: Language): Promise<void> {
  writeStorage(LANGUAGE_STORAGE_KEY, language);
  await i18n.changeLanguage(language);
}

/** The active language, always one of the supported ones. */
export function currentLanguage(): Language {
  return languageFromTag(i18n.resolvedLanguage ?? i18n.language);
}

i18n.on('languageChanged', (language) => {
  if (typeof document !== 'undefined') document.documentElement.lang = languageFromTag(language);
});

void i18n.use(initReactI18next).init({
  resources,
  lng: detectLanguage(),
  fallbackLng: 'en',
  supportedLngs: [...SUPPORTED_LANGUAGES],
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

export default i18n;
