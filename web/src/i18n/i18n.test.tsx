import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, makeUser, mockServer, renderApp, signedOut } from '../test/utils';
import en from './en.json';
import es from './es.json';
import fr from './fr.json';
import i18n, { changeLanguage, detectLanguage, languageFromTag, LANGUAGE_STORAGE_KEY, resources } from './index';

function leaves(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      for (const [path, text] of leaves(child, prefix ? `${prefix}.${key}` : key)) out.set(path, text);
    }
  } else {
    out.set(prefix, String(value));
  }
  return out;
}

describe('catalogues', () => {
  it.each([
    ['es', es],
    ['fr', fr],
  ])('%s has exactly the English keys, none empty, with the same placeholders', (_name, catalogue) => {
    const english = leaves(en);
    const other = leaves(catalogue);
    expect([...other.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [key, text] of other) {
      expect(text.trim(), key).not.toBe('');
      const placeholders = (s: string) => (s.match(/{{\s*\w+\s*}}/g) ?? []).sort();
      expect(placeholders(text), key).toEqual(placeholders(english.get(key) ?? ''));
    }
  });
});

describe("the models' catalogue (findings, recommendations), shared with the server", () => {
  it.each([
    ['es', resources.es.translation],
    ['fr', resources.fr.translation],
  ])('%s has every English key under content, none empty, with the same placeholders', (_name, catalogue) => {
    const english = leaves(resources.en.translation.content, 'content');
    const other = leaves(catalogue.content, 'content');
    expect(english.size).toBeGreaterThan(60);
    expect([...other.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [key, text] of other) {
      expect(text.trim(), key).not.toBe('');
      const placeholders = (s: string) => (s.match(/{{\s*\w+\s*}}/g) ?? []).sort();
      expect(placeholders(text), key).toEqual(placeholders(english.get(key) ?? ''));
    }
  });
});

describe('language detection', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('maps browser tags to supported languages', () => {
    expect(languageFromTag('es-ES')).toBe('es');
    expect(languageFromTag('es-419')).toBe('es');
    expect(languageFromTag('fr-CA')).toBe('fr');
    expect(languageFromTag('de-DE')).toBe('en');
    expect(languageFromTag(undefined)).toBe('en');
  });

  it('prefers the stored choice over the browser language', () => {
    vi.stubGlobal('navigator', { ...navigator, language: 'fr-FR' });
    expect(detectLanguage()).toBe('fr');
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, 'es');
    expect(detectLanguage()).toBe('es');
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, 'xx');
    expect(detectLanguage()).toBe('fr');
  });
});

describe('switching language', () => {
  it('shows the welcome page in Spanish and sets <html lang>', async () => {
    mockServer({ 'GET /api/auth/me': signedOut });
    renderApp('/');
    await act(() => changeLanguage('es'));
    expect(screen.getAllByRole('link', { name: 'Empezar ahora' }).length).toBeGreaterThan(0);
    expect(document.documentElement.lang).toBe('es');
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('es');
  });

  it('switches the login page to French from the language select', async () => {
    mockServer({ 'GET /api/auth/me': signedOut });
    renderApp('/login');
    await userEvent.setup().selectOptions(screen.getByLabelText('Language'), 'fr');
    expect(await screen.findByRole('button', { name: 'Se connecter' })).toBeInTheDocument();
    expect(screen.getByLabelText('Mot de passe')).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('fr');
    expect(i18n.language).toBe('fr');
  });

  it('translates the sidebar and the network error', async () => {
    await changeLanguage('es');
    mockServer({ 'GET /api/auth/me': () => json(200, makeUser()) });
    renderApp('/home');
    const nav = await screen.findByRole('navigation', { name: 'Navegación principal' });
    expect(within(nav).getByRole('link', { name: 'Iniciar análisis' })).toHaveAttribute('href', '/intake');
    expect(screen.getByRole('button', { name: 'Cerrar sesión' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Hola de nuevo, Ada Lovelace');
  });

  it('shows known server messages in the chosen language', async () => {
    await changeLanguage('fr');
    mockServer({
      'GET /api/auth/me': signedOut,
      'POST /api/auth/login': () =>
        json(401, { detail: 'Invalid email or password. Please try again.', code: 'invalid_credentials', params: {} }),
    });
    renderApp('/login');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Mot de passe'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('E-mail ou mot de passe incorrect. Veuillez réessayer.');
  });
});
