import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, makeUser, mockServer, renderApp, signedOut } from '../test/utils';
import { THEME_STORAGE_KEY } from './theme';

/** A controllable `prefers-color-scheme: dark` media query. */
function fakeSystemTheme(initiallyDark: boolean) {
  const listeners = new Set<() => void>();
  const media = {
    matches: initiallyDark,
    media: '(prefers-color-scheme: dark)',
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  };
  vi.stubGlobal(
    'matchMedia',
    vi.fn(() => media),
  );
  return {
    set(dark: boolean) {
      media.matches = dark;
      listeners.forEach((listener) => listener());
    },
  };
}

describe('theme', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('follows the system in auto mode, including later changes', () => {
    const system = fakeSystemTheme(true);
    mockServer({ 'GET /api/auth/me': signedOut });
    renderApp('/');
    expect(document.documentElement.dataset.theme).toBe('dark');
    act(() => system.set(false));
    expect(document.documentElement.dataset.theme).toBe('light');
  });

  it('applies and remembers an explicit choice', async () => {
    fakeSystemTheme(false);
    mockServer({ 'GET /api/auth/me': signedOut });
    renderApp('/login');
    await userEvent.setup().selectOptions(screen.getByLabelText('Theme'), 'dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
  });

  it('starts from the stored choice', () => {
    fakeSystemTheme(true);
    window.localStorage.setItem(THEME_STORAGE_KEY, 'light');
    mockServer({ 'GET /api/auth/me': signedOut });
    renderApp('/');
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(screen.getByLabelText('Theme')).toHaveValue('light');
  });

  it('can be changed on the settings page', async () => {
    fakeSystemTheme(false);
    const settings = {
      theme: 'auto',
      language: 'en',
      notifyTestResults: true,
      notifyDeviceAlerts: true,
      notifyPatientUpdates: false,
      sessionTimeout: '30m',
      updatedAt: null,
    };
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/health': () => json(200, { status: 'ok', version: '0.1.0', build: 'abc1234', database: 'sqlite' }),
      // Signed in, the choice is saved to the account (see features/settings).
      'GET /api/settings': () => json(200, settings),
      'PUT /api/settings': async (request) => json(200, await request.json()),
    });
    renderApp('/settings');
    const main = await screen.findByRole('main');
    const select = main.querySelector('select') as HTMLSelectElement;
    expect(select.labels?.[0]).toHaveTextContent('Theme');
    expect([...select.options].map((option) => option.textContent)).toEqual(['Light', 'Dark', 'Auto']);
    await userEvent.setup().selectOptions(select, 'dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(await screen.findByText('abc1234')).toBeInTheDocument();
    expect(screen.getByText('SQLite')).toBeInTheDocument();
  });
});
