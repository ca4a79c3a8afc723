import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Settings } from '../../api/client';
import i18n from '../../i18n';
import { json, makeUser, mockServer, renderApp, requestsTo } from '../../test/utils';

function makeSettings(overrides: Partial<Settings> = {}): Settings {
  return {
    theme: 'auto',
    language: 'en',
    notifyTestResults: true,
    notifyDeviceAlerts: true,
    notifyPatientUpdates: false,
    sessionTimeout: '30m',
    updatedAt: null,
    ...overrides,
  };
}

/** A server that answers PUT with what it was sent. */
function settingsServer(initial: Settings, put?: (request: Request) => Response | Promise<Response>) {
  return mockServer({
    'GET /api/auth/me': () => json(200, makeUser()),
    'GET /api/settings': () => json(200, initial),
    'PUT /api/settings':
      put ??
      (async (request) => json(200, { ...(await request.clone().json()), updatedAt: '2026-01-01T00:00:00.000Z' })),
  });
}

describe('Settings page', () => {
  it("shows the account's notification and session settings with the spec's defaults", async () => {
    settingsServer(makeSettings());
    renderApp('/settings');
    expect(await screen.findByRole('switch', { name: 'Test Results' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Device Alerts' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Patient Updates' })).not.toBeChecked();
    const timeout = screen.getByLabelText('Session Timeout');
    expect(timeout).toHaveDisplayValue('30 minutes');
    expect([...(timeout as HTMLSelectElement).options].map((o) => o.text)).toEqual([
      '15 minutes',
      '30 minutes',
      '1 hour',
      'Never',
    ]);
    // The spec's sections, in its order.
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Application',
      'Notifications',
      'Data & Storage',
      'Privacy & Security',
      'Screen calibration',
      'About',
    ]);
  });

  it('saves a toggle with every other setting as loaded', async () => {
    const server = settingsServer(makeSettings());
    renderApp('/settings');
    await userEvent.setup().click(await screen.findByRole('switch', { name: 'Patient Updates' }));

    await waitFor(() => expect(requestsTo(server, 'PUT', '/api/settings')).toHaveLength(1));
    const [request] = requestsTo(server, 'PUT', '/api/settings');
    expect(await request?.json()).toEqual({
      theme: 'auto',
      language: 'en',
      notifyTestResults: true,
      notifyDeviceAlerts: true,
      notifyPatientUpdates: true,
      sessionTimeout: '30m',
    });
    expect(screen.getByRole('switch', { name: 'Patient Updates' })).toBeChecked();
  });

  it('saves the session timeout', async () => {
    const server = settingsServer(makeSettings());
    renderApp('/settings');
    await userEvent.setup().selectOptions(await screen.findByLabelText('Session Timeout'), '15 minutes');

    await waitFor(() => expect(requestsTo(server, 'PUT', '/api/settings')).toHaveLength(1));
    const [request] = requestsTo(server, 'PUT', '/api/settings');
    expect(await request?.json()).toMatchObject({ sessionTimeout: '15m' });
  });

  it('applies a theme at once and saves it', async () => {
    const server = settingsServer(makeSettings({ theme: 'light', updatedAt: '2026-01-01T00:00:00.000Z' }));
    renderApp('/settings');
    await screen.findByRole('switch', { name: 'Test Results' });
    await userEvent.setup().selectOptions(within(screen.getByRole('main')).getByLabelText('Theme'), 'Dark');

    expect(document.documentElement.dataset.theme).toBe('dark');
    await waitFor(() => expect(requestsTo(server, 'PUT', '/api/settings')).toHaveLength(1));
    const [request] = requestsTo(server, 'PUT', '/api/settings');
    expect(await request?.json()).toMatchObject({ theme: 'dark', language: 'en' });
  });

  it('switches the whole interface to Spanish and saves it', async () => {
    const server = settingsServer(makeSettings());
    renderApp('/settings');
    await screen.findByRole('switch', { name: 'Test Results' });
    await userEvent.setup().selectOptions(within(screen.getByRole('main')).getByLabelText('Language'), 'Spanish');

    expect(await screen.findByRole('heading', { name: 'Configuración', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Pacientes' })).toBeInTheDocument();
    await waitFor(() => expect(requestsTo(server, 'PUT', '/api/settings')).toHaveLength(1));
    const [request] = requestsTo(server, 'PUT', '/api/settings');
    expect(await request?.json()).toMatchObject({ language: 'es' });
  });

  it('puts a change back and says so when saving fails', async () => {
    settingsServer(makeSettings(), () => json(500, { detail: 'Internal server error.' }));
    renderApp('/settings');
    await userEvent.setup().click(await screen.findByRole('switch', { name: 'Device Alerts' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Could not save your settings. Please try again.');
    expect(screen.getByRole('switch', { name: 'Device Alerts' })).toBeChecked();
  });

  it('applies the saved theme and language when signed in', async () => {
    settingsServer(makeSettings({ theme: 'dark', language: 'fr', updatedAt: '2026-01-01T00:00:00.000Z' }));
    renderApp('/home');
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
    await waitFor(() => expect(i18n.language).toBe('fr'));
  });

  it('keeps the browser choice while the account has never saved settings', async () => {
    window.localStorage.setItem('cardio.theme', 'dark');
    settingsServer(makeSettings({ theme: 'light' }));
    renderApp('/settings');
    await screen.findByRole('switch', { name: 'Test Results' });
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(within(screen.getByRole('main')).getByLabelText('Theme')).toHaveDisplayValue('Dark');
  });
});

describe('Settings page: Data & Storage and About', () => {
  it("shows an administrator the server's real storage figures, version, environment, models and release notes", async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser({ isAdmin: true })),
      'GET /api/settings': () => json(200, makeSettings()),
      'GET /api/system/storage': () =>
        json(200, {
          database_bytes: 1_572_864,
          blob_bytes: 3_355_443,
          blob_files: 12,
          data_dir: '/var/lib/cardio',
          database: 'sqlite',
        }),
      'GET /api/health': () =>
        json(200, { status: 'ok', version: '0.1.0', build: 'b42', database: 'postgres', environment: 'production' }),
      'GET /api/models': () =>
        json(200, [
          { modality: 'ecg', id: 'ecg-rhythm-gbdt', version: '1.0.0', dataset: 'cinc2017', metrics: [] },
          { modality: 'ppg', id: 'ppg-rhythm-gbdt', version: '1.0.0', dataset: 'cinc2017', metrics: [] },
        ]),
    });
    renderApp('/settings');
    const storage = (await screen.findByRole('heading', { name: 'Data & Storage' })).closest('section') as HTMLElement;
    expect(await within(storage).findByText('Database 1.5 MB, recordings 3.2 MB (12 files)')).toBeInTheDocument();
    expect(within(storage).getByText('/var/lib/cardio')).toBeInTheDocument();
    const about = screen.getByRole('heading', { name: 'About' }).closest('section') as HTMLElement;
    expect(await within(about).findByText('production')).toBeInTheDocument();
    expect(within(about).getByText('PostgreSQL')).toBeInTheDocument();
    expect(await within(about).findByText('ecg-rhythm-gbdt 1.0.0, ppg-rhythm-gbdt 1.0.0')).toBeInTheDocument();
    expect(within(about).getByRole('link', { name: 'What is new in this version' })).toHaveAttribute(
      'href',
      '/api/release-notes',
    );
  });

  it('shows a patient account its own settings without the doctor toggles or the storage figures', async () => {
    const fake = mockServer({
      'GET /api/auth/me': () => json(200, makeUser({ role: 'user' })),
      'GET /api/settings': () => json(200, makeSettings()),
    });
    renderApp('/settings');
    expect(await screen.findByLabelText('Session Timeout')).toHaveDisplayValue('30 minutes');
    // The spec's order, less Notifications: a patient account has none (the toggles are a doctor's).
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Application',
      'Data & Storage',
      'Privacy & Security',
      'About',
    ]);
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
    const storage = screen.getByRole('heading', { name: 'Data & Storage' }).closest('section') as HTMLElement;
    expect(storage).toHaveTextContent(
      /^Data & StorageThese server-wide settings \(data encryption, automatic backups, storage\) are managed by your Cardio administrator\.$/,
    );
    expect(fake.mock.calls.map(([request]) => new URL((request as Request).url).pathname)).not.toContainEqual(
      expect.stringMatching(/^\/api\/(system|notifications)/),
    );
  });

  it('tells an administrator that server-wide changes are always notified', async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser({ isAdmin: true })),
      'GET /api/settings': () => json(200, makeSettings()),
      'GET /api/notifications': () => json(200, { unread: 0, items: [] }),
    });
    renderApp('/settings');
    const notifications = (await screen.findByRole('heading', { name: 'Notifications' })).closest(
      'section',
    ) as HTMLElement;
    expect(await within(notifications).findByRole('switch', { name: 'Test Results' })).toBeChecked();
    expect(
      within(notifications).getByText(
        'Administrators are always told when another administrator changes Data Encryption or Auto Backup or makes a backup, and when an account becomes or stops being an administrator.',
      ),
    ).toBeInTheDocument();
  });

  it('does not tell a doctor who is not an administrator about server-wide notifications', async () => {
    settingsServer(makeSettings());
    renderApp('/settings');
    expect(await screen.findByRole('switch', { name: 'Test Results' })).toBeInTheDocument();
    expect(screen.queryByText(/^Administrators are always told/)).not.toBeInTheDocument();
  });
});
