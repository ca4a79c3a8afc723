import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Notification, NotificationFeed } from '../../api/client';
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
});
