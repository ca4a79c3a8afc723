import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Notification, NotificationFeed } from '../../api/client';
import i18n from '../../i18n';
import { json, makeUser, mockServer, renderApp, requestsTo } from '../../test/utils';

function notification(overrides: Partial<Notification>): Notification {
  return {
    id: 'n',
    kind: 'review_needed',
    at: new Date(Date.now() - 5 * 60_000).toISOString(),
    unread: false,
    analysisId: null,
    modality: null,
    patientId: null,
    patientName: null,
    device: null,
    event: null,
    actor: null,
    detail: null,
    ...overrides,
  };
}

describe('Notifications', () => {
  it('shows the unread count, lists each kind with its link, and marks them read', async () => {
    let feed: NotificationFeed = {
      unread: 2,
      items: [
        notification({ id: 'device-1', kind: 'device_alert', unread: true, device: 'USB 2303', detail: 'Unplugged.' }),
        notification({
          id: 'review-a-1',
          unread: true,
          analysisId: 'a-1',
          modality: 'ecg',
          patientId: 'p-1',
          patientName: 'María López',
        }),
        notification({ id: 'viewed-p-1', kind: 'shared_viewed', patientId: 'p-1', patientName: 'María López' }),
      ],
    };
    const fake = mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/notifications': () => json(200, feed),
      'POST /api/notifications/seen': () => {
        feed = { unread: 0, items: feed.items.map((n) => ({ ...n, unread: false })) };
        return json(204);
      },
    });
    renderApp('/settings');
    const button = await screen.findByRole('button', { name: /Notifications/ });
    expect(await within(button).findByLabelText('2 unread notifications')).toHaveTextContent('2');
    const user = userEvent.setup();
    await user.click(button);
    const dialog = screen.getByRole('dialog', { name: 'Notifications' });
    expect(within(dialog).getByRole('link', { name: 'USB 2303: Unplugged.' })).toHaveAttribute('href', '/devices');
    expect(within(dialog).getByRole('link', { name: 'ECG result of María López awaits your review' })).toHaveAttribute(
      'href',
      '/analyses/a-1',
    );
    expect(within(dialog).getByRole('link', { name: 'María López viewed the results you shared' })).toHaveAttribute(
      'href',
      '/patients/p-1',
    );
    expect(within(dialog).getAllByText('(new)')).toHaveLength(2);
    await user.click(within(dialog).getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(within(dialog).queryAllByText('(new)')).toHaveLength(0));
    expect(requestsTo(fake, 'POST', '/api/notifications/seen')).toHaveLength(1);
    expect(within(button).queryByLabelText(/unread/)).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('says when there is nothing, and is not offered to a patient account', async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/notifications': () => json(200, { unread: 0, items: [] }),
    });
    const first = renderApp('/settings');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText('No notifications')).toBeInTheDocument();
    first.unmount();

    const fake = mockServer({
      'GET /api/auth/me': () => json(200, makeUser({ role: 'user' })),
      'GET /api/shared/invitations': () => json(200, []),
      'GET /api/shared/results': () => json(200, []),
    });
    renderApp('/home');
    expect(await screen.findByRole('heading', { name: 'My results' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Notifications/ })).not.toBeInTheDocument();
    expect(requestsTo(fake, 'GET', '/api/notifications')).toHaveLength(0);
  });

  it('polls the list as a background request, which does not count as activity for the session timeout', async () => {
    const fake = mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/settings': () => json(404),
      'GET /api/notifications': () => json(200, { unread: 0, items: [] }),
    });
    renderApp('/settings');
    await screen.findByRole('button', { name: 'Notifications' });
    await waitFor(() => expect(requestsTo(fake, 'GET', '/api/notifications')).toHaveLength(1));
    expect(requestsTo(fake, 'GET', '/api/notifications')[0]?.headers.get('X-Cardio-Background')).toBe('1');
    // What the person asks for is activity: no background mark.
    expect(requestsTo(fake, 'GET', '/api/auth/me')[0]?.headers.get('X-Cardio-Background')).toBeNull();
  });
});

describe('Notifications of server-wide changes (administrators)', () => {
  const feed: NotificationFeed = {
    unread: 1,
    items: [
      notification({
        id: 'admin-4',
        kind: 'admin_change',
        unread: true,
        event: 'data_settings',
        actor: 'ana@clinic.test',
        detail: 'encrypt_blobs=off;auto_backup=on',
      }),
      notification({
        id: 'admin-3',
        kind: 'admin_change',
        event: 'backup',
        actor: 'ana@clinic.test',
        detail: '2026-11-25T10-00-00.000Z',
      }),
      notification({ id: 'admin-2', kind: 'admin_change', event: 'administrator_granted', actor: 'ana@clinic.test' }),
      notification({ id: 'admin-1', kind: 'admin_change', event: 'administrator_revoked', actor: 'ben@clinic.test' }),
    ],
  };

  async function openList(user = makeUser({ isAdmin: true })) {
    mockServer({
      'GET /api/auth/me': () => json(200, user),
      'GET /api/shared/invitations': () => json(200, []),
      'GET /api/shared/results': () => json(200, []),
      'GET /api/notifications': () => json(200, feed),
    });
    renderApp('/home');
    await userEvent.setup().click(await screen.findByRole('button', { name: /Notifications/ }));
    const dialog = screen.getByRole('dialog', { name: 'Notifications' });
    await within(dialog).findByRole('list');
    return dialog;
  }

  function texts(dialog: HTMLElement): (string | null)[] {
    return within(dialog)
      .getAllByRole('listitem')
      .map((item) => item.querySelector('.notification-list__body')?.firstChild?.textContent ?? null);
  }

  it('says what changed and who changed it, reading the new values rather than showing them raw', async () => {
    const dialog = await openList();
    expect(texts(dialog)).toEqual([
      'ana@clinic.test changed Data Encryption to off and Auto Backup to on',
      'ana@clinic.test made a backup (2026-11-25T10-00-00.000Z)',
      'ana@clinic.test is now an administrator',
      'ben@clinic.test is no longer an administrator',
    ]);
    // The settings changes lead to the Settings page; the administrator changes have nothing to open.
    expect(
      within(dialog).getByRole('link', {
        name: 'ana@clinic.test changed Data Encryption to off and Auto Backup to on',
      }),
    ).toHaveAttribute('href', '/settings');
    expect(
      within(dialog).getByRole('link', { name: 'ana@clinic.test made a backup (2026-11-25T10-00-00.000Z)' }),
    ).toHaveAttribute('href', '/settings');
    expect(within(dialog).queryByRole('link', { name: 'ana@clinic.test is now an administrator' })).toBeNull();
    expect(within(dialog).queryByText(/encrypt_blobs/)).not.toBeInTheDocument();
    expect(within(dialog).getAllByText('(new)')).toHaveLength(1);
  });

  it('says it in Spanish and in French', async () => {
    const dialog = await openList();
    await act(() => i18n.changeLanguage('es'));
    expect(texts(dialog)).toEqual([
      'ana@clinic.test desactivó el Cifrado de datos y activó la Copia de seguridad automática',
      'ana@clinic.test hizo una copia de seguridad (2026-11-25T10-00-00.000Z)',
      'ana@clinic.test ahora tiene permisos de administración',
      'ben@clinic.test ya no tiene permisos de administración',
    ]);
    await act(() => i18n.changeLanguage('fr'));
    expect(texts(dialog)).toEqual([
      'ana@clinic.test a désactivé le Chiffrement des données et activé la Sauvegarde automatique',
      'ana@clinic.test a fait une sauvegarde (2026-11-25T10-00-00.000Z)',
      "ana@clinic.test a désormais les droits d'administration",
      "ben@clinic.test n'a plus les droits d'administration",
    ]);
  });

  it('is offered to an administrator with a patient account', async () => {
    const dialog = await openList(makeUser({ role: 'user', isAdmin: true }));
    expect(texts(dialog)).toHaveLength(4);
  });
});
