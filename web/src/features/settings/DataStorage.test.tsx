import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { BackupList, BackupSummary, DataSettingsView, Settings } from '../../api/client';
import i18n from '../../i18n';
import { json, makeUser, mockServer, renderApp, requestsTo, type Handler } from '../../test/utils';

const settings: Settings = {
  theme: 'auto',
  language: 'en',
  notifyTestResults: true,
  notifyDeviceAlerts: true,
  notifyPatientUpdates: false,
  sessionTimeout: '30m',
  updatedAt: null,
};

function dataSettings(overrides: Partial<DataSettingsView> = {}): DataSettingsView {
  return {
    encrypt_blobs: true,
    auto_backup: true,
    key_source: 'key_file',
    key_fingerprint: '0123456789abcdef',
    updated_at: null,
    ...overrides,
  };
}

function backup(id: string, createdAt: string, sizeBytes: number): BackupSummary {
  return {
    id,
    created_at: createdAt,
    size_bytes: sizeBytes,
    counts: { users: 1, patients: 3, screenings: 1, analyses: 5, blobs: 4 },
    encrypted_blobs: 4,
  };
}

function backupList(overrides: Partial<BackupList> = {}): BackupList {
  return {
    database: 'sqlite',
    supported: true,
    note: null,
    auto_backup: true,
    keep: 7,
    last_backup_at: null,
    backups_dir: '/var/lib/cardio/backups',
    backups: [],
    ...overrides,
  };
}

/** The server-wide endpoints that only an administrator may call. */
const ADMIN_ONLY = ['/api/system/data-settings', '/api/system/backups', '/api/system/storage'] as const;

const ADMINS_ONLY =
  'Only an administrator can see or change server-wide settings (data encryption, backups and storage).';

/** The server as an administrator sees it (the first account of the installation). */
function server(handlers: Record<string, Handler>) {
  return mockServer({
    'GET /api/auth/me': () => json(200, makeUser({ isAdmin: true })),
    'GET /api/settings': () => json(200, settings),
    'GET /api/system/storage': () =>
      json(200, {
        database_bytes: 1024,
        blob_bytes: 2048,
        blob_files: 2,
        data_dir: '/var/lib/cardio',
        database: 'sqlite',
      }),
    'GET /api/health': () =>
      json(200, { status: 'ok', version: '0.1.0', build: 'b1', database: 'sqlite', environment: 'test' }),
    'GET /api/models': () => json(200, []),
    'GET /api/system/data-settings': () => json(200, dataSettings()),
    'GET /api/system/backups': () => json(200, backupList()),
    ...handlers,
  });
}

async function section() {
  const heading = await screen.findByRole('heading', { name: 'Data & Storage' });
  return heading.closest('section') as HTMLElement;
}

/** Privacy & Security, where the spec puts Data Encryption. */
async function securitySection(): Promise<HTMLElement> {
  const heading = await screen.findByRole('heading', { name: 'Privacy & Security' });
  return heading.closest('section') as HTMLElement;
}

describe('Settings page: backups and encryption', () => {
  it("shows the server's switches and saves Data Encryption and Auto Backup on the server", async () => {
    let saved = dataSettings();
    const mock = server({
      'GET /api/system/data-settings': () => json(200, saved),
      'PUT /api/system/data-settings': async (request) => {
        saved = { ...saved, ...((await request.clone().json()) as Partial<DataSettingsView>) };
        return json(200, saved);
      },
    });
    renderApp('/settings');
    const storage = await section();
    const security = await securitySection();
    const encryption = await within(security).findByRole('switch', { name: 'Data Encryption' });
    expect(encryption).toBeChecked();
    expect(within(storage).queryByRole('switch', { name: 'Data Encryption' })).not.toBeInTheDocument();
    const autoBackup = await within(storage).findByRole('switch', { name: 'Auto Backup' });
    expect(autoBackup).toBeChecked();
    expect(within(storage).getByText('/var/lib/cardio')).toBeInTheDocument();
    expect(within(storage).queryByText('Recordings')).not.toBeInTheDocument();
    expect(
      within(security).getByText(/Data key: the file data.key in the data folder \(fingerprint 0123456789abcdef\)/),
    ).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(encryption);
    await waitFor(() => expect(requestsTo(mock, 'PUT', '/api/system/data-settings')).toHaveLength(1));
    expect(await requestsTo(mock, 'PUT', '/api/system/data-settings')[0]?.json()).toEqual({
      encrypt_blobs: false,
      auto_backup: true,
    });
    await waitFor(() => expect(within(security).getByRole('switch', { name: 'Data Encryption' })).not.toBeChecked());

    await user.click(within(storage).getByRole('switch', { name: 'Auto Backup' }));
    await waitFor(() => expect(requestsTo(mock, 'PUT', '/api/system/data-settings')).toHaveLength(2));
    expect(await requestsTo(mock, 'PUT', '/api/system/data-settings')[1]?.json()).toEqual({
      encrypt_blobs: false,
      auto_backup: false,
    });
  });

  it('says so when a switch cannot be saved, and keeps the saved state', async () => {
    server({ 'PUT /api/system/data-settings': () => json(500, { detail: 'Internal server error.' }) });
    renderApp('/settings');
    const security = await securitySection();
    await userEvent.setup().click(await within(security).findByRole('switch', { name: 'Data Encryption' }));
    expect(await within(security).findByRole('alert')).toHaveTextContent(
      'Could not save this setting. Please try again.',
    );
    expect(within(security).getByRole('switch', { name: 'Data Encryption' })).toBeChecked();
  });

  it('backs up now and lists the backups with their time and size under Manage', async () => {
    let list = backupList();
    const mock = server({
      'GET /api/system/backups': () => json(200, list),
      'POST /api/system/backups': () => {
        const made = backup('2026-11-23T10-00-00.000Z', '2026-11-23T10:00:00.000Z', 3 * 1024 * 1024);
        list = { ...list, last_backup_at: made.created_at, backups: [made] };
        return json(201, made);
      },
    });
    renderApp('/settings');
    const storage = await section();
    expect(await within(storage).findByText('No backup yet.')).toBeInTheDocument();
    const manage = within(storage).getByRole('button', { name: 'Manage' });
    expect(manage).toHaveAttribute('aria-expanded', 'false');

    const user = userEvent.setup();
    manage.focus();
    await user.keyboard('{Enter}');
    expect(manage).toHaveAttribute('aria-expanded', 'true');
    expect(within(storage).getByText('No backups yet.')).toBeVisible();

    await user.click(within(storage).getByRole('button', { name: 'Back up now' }));
    await waitFor(() => expect(requestsTo(mock, 'POST', '/api/system/backups')).toHaveLength(1));
    const table = await within(storage).findByRole('table');
    expect(within(table).getByRole('columnheader', { name: 'Time' })).toBeInTheDocument();
    expect(within(table).getByText('3.0 MB')).toBeInTheDocument();
    expect(within(table).getByText('3 patients, 5 analyses, 4 files')).toBeInTheDocument();
    expect(within(storage).getByText(/^Last backup: /)).toBeInTheDocument();
    expect(within(storage).getByText(/\/var\/lib\/cardio\/backups/)).toBeInTheDocument();
  });

  it("shows the server's reason when a backup fails", async () => {
    server({ 'POST /api/system/backups': () => json(500, { detail: 'Internal server error.' }) });
    renderApp('/settings');
    const storage = await section();
    await userEvent.setup().click(await within(storage).findByRole('button', { name: 'Back up now' }));
    expect(await within(storage).findByRole('alert')).toHaveTextContent('The backup failed: Internal server error.');
  });

  it("says backups are the database operator's job on PostgreSQL and offers no backup", async () => {
    server({
      'GET /api/system/backups': () =>
        json(
          200,
          backupList({
            database: 'postgres',
            supported: false,
            auto_backup: false,
            note: "Backups of a PostgreSQL database are the database operator's job (for example with pg_dump); this server does not make them.",
          }),
        ),
    });
    renderApp('/settings');
    const storage = await section();
    expect(
      await within(storage).findByText(
        "This server uses PostgreSQL: backups are the database operator's job (for example with pg_dump).",
      ),
    ).toBeInTheDocument();
    const autoBackup = within(storage).getByRole('switch', { name: 'Auto Backup' });
    expect(autoBackup).toBeDisabled();
    expect(autoBackup).not.toBeChecked();
    expect(within(storage).queryByRole('button', { name: 'Back up now' })).not.toBeInTheDocument();
    expect(within(await securitySection()).getByRole('switch', { name: 'Data Encryption' })).toBeEnabled();
  });

  it('says when the backups or the switches cannot be loaded', async () => {
    server({
      'GET /api/system/backups': () => json(500, { detail: 'Internal server error.' }),
    });
    renderApp('/settings');
    const storage = await section();
    expect(await within(storage).findByText('The backups are unavailable right now.')).toBeInTheDocument();
  });

  it('says when the data settings cannot be loaded', async () => {
    server({ 'GET /api/system/data-settings': () => json(500, { detail: 'Internal server error.' }) });
    renderApp('/settings');
    const storage = await section();
    expect(await within(storage).findByText('The data settings are unavailable right now.')).toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Data Encryption' })).not.toBeInTheDocument();
  });

  it('shows the section in Spanish', async () => {
    server({});
    await i18n.changeLanguage('es');
    renderApp('/settings');
    const heading = await screen.findByRole('heading', { name: 'Datos y almacenamiento' });
    const storage = heading.closest('section') as HTMLElement;
    expect(await screen.findByRole('switch', { name: 'Cifrado de datos' })).toBeChecked();
    expect(within(storage).getByRole('button', { name: 'Hacer copia ahora' })).toBeInTheDocument();
  });
});

describe('Settings page: server-wide settings are for administrators', () => {
  /** Any call to an administrator endpoint answers 403, as the server does for other accounts. */
  function nonAdminServer(user = makeUser()) {
    const forbidden = () => json(403, { detail: ADMINS_ONLY });
    return server({
      'GET /api/auth/me': () => json(200, user),
      'GET /api/system/data-settings': forbidden,
      'PUT /api/system/data-settings': forbidden,
      'GET /api/system/backups': forbidden,
      'POST /api/system/backups': forbidden,
      'GET /api/system/storage': forbidden,
    });
  }

  it('tells a doctor who is not an administrator who manages them, and calls none of their endpoints', async () => {
    const mock = nonAdminServer();
    renderApp('/settings');
    const storage = await section();
    expect(
      within(storage).getByText(
        'These server-wide settings (data encryption, automatic backups, storage) are managed by your Cardio administrator.',
      ),
    ).toBeInTheDocument();
    // The doctor's own settings are all there, in the spec's order.
    expect(await screen.findByRole('switch', { name: 'Test Results' })).toBeChecked();
    expect(screen.getByLabelText('Session Timeout')).toHaveDisplayValue('30 minutes');
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Application',
      'Notifications',
      'Data & Storage',
      'Privacy & Security',
      'Screen calibration',
      'About',
    ]);
    expect(screen.queryByRole('switch', { name: 'Data Encryption' })).not.toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Auto Backup' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Back up now' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Manage' })).not.toBeInTheDocument();
    expect(screen.queryByText('The data settings are unavailable right now.')).not.toBeInTheDocument();
    expect(within(await securitySection()).queryByText(/Data key/)).not.toBeInTheDocument();
    // Counted once the page has settled (About loaded).
    await screen.findByText('test');
    for (const path of ADMIN_ONLY) {
      expect(requestsTo(mock, 'GET', path), path).toHaveLength(0);
    }
  });

  it('says who manages them in Spanish and in French', async () => {
    nonAdminServer();
    await i18n.changeLanguage('es');
    const first = renderApp('/settings');
    const es = (await screen.findByRole('heading', { name: 'Datos y almacenamiento' })).closest(
      'section',
    ) as HTMLElement;
    expect(
      within(es).getByText(
        'Estos ajustes de todo el servidor (cifrado de datos, copias de seguridad automáticas, almacenamiento) los gestiona su administrador de Cardio.',
      ),
    ).toBeInTheDocument();
    first.unmount();

    await i18n.changeLanguage('fr');
    renderApp('/settings');
    const fr = (await screen.findByRole('heading', { name: 'Données et stockage' })).closest('section') as HTMLElement;
    expect(
      within(fr).getByText(
        'Ces réglages communs à tout le serveur (chiffrement des données, sauvegardes automatiques, stockage) sont gérés par votre administrateur Cardio.',
      ),
    ).toBeInTheDocument();
  });

  it('names the bucket the recordings are kept in', async () => {
    server({
      'GET /api/system/storage': () =>
        json(200, {
          database_bytes: 1024,
          blob_bytes: 2048,
          blob_files: 2,
          data_dir: '/var/lib/cardio',
          database: 'postgres',
          blob_store: 's3://cardio-recordings/clinic-a',
        }),
    });
    renderApp('/settings');
    const storage = await section();
    expect(await within(storage).findByText('s3://cardio-recordings/clinic-a')).toBeInTheDocument();
    expect(within(storage).getByText('Recordings')).toBeInTheDocument();
    expect(
      within(storage).getByText(
        'The recordings are kept in this S3-compatible bucket (--blob-url or CARDIO_BLOB_URL), shared by every server of the installation.',
      ),
    ).toBeInTheDocument();
  });

  it('gives an administrator with a patient account the controls too', async () => {
    const mock = server({ 'GET /api/auth/me': () => json(200, makeUser({ role: 'user', isAdmin: true })) });
    renderApp('/settings');
    const storage = await section();
    expect(await within(storage).findByRole('switch', { name: 'Auto Backup' })).toBeChecked();
    expect(await within(await securitySection()).findByRole('switch', { name: 'Data Encryption' })).toBeChecked();
    expect(within(storage).getByText('/var/lib/cardio')).toBeInTheDocument();
    expect(
      screen.queryByText(
        'These server-wide settings (data encryption, automatic backups, storage) are managed by your Cardio administrator.',
      ),
    ).not.toBeInTheDocument();
    for (const path of ADMIN_ONLY) {
      expect(requestsTo(mock, 'GET', path).length, path).toBeGreaterThan(0);
    }
  });
});
