import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Share } from '../../api/client';
import { makeClinicalRecord, makePatient } from '../../test/fixtures';
import { json, makeUser, mockServer, renderApp, requestsTo, type Handler } from '../../test/utils';

function doctorServer(handlers: Record<string, Handler> = {}) {
  return mockServer({
    'GET /api/auth/me': () => json(200, makeUser()),
    'GET /api/patients/p-1': () => json(200, makePatient({ email: 'maria@example.com' })),
    'GET /api/patients/p-1/clinical': () => json(200, [makeClinicalRecord()]),
    'GET /api/patients/p-1/screenings': () => json(200, []),
    'GET /api/analyses': () => json(200, []),
    ...handlers,
  });
}

function share(overrides: Partial<Share> = {}): Share {
  return {
    id: 'sh-1',
    patientId: 'p-1',
    email: 'maria@example.com',
    status: 'invited',
    shareAll: false,
    createdAt: '2026-11-20T10:00:00Z',
    acceptedAt: null,
    revokedAt: null,
    ...overrides,
  };
}

describe('Sharing a patient record (doctor)', () => {
  it("invites the record's email with reviewed results only by default", async () => {
    const fake = doctorServer({
      'GET /api/patients/p-1/share': () => json(200, { current: null }),
      'POST /api/patients/p-1/share': () => json(200, share()),
    });
    renderApp('/patients/p-1');
    const card = await screen.findByRole('region', { name: 'Share with patient' });
    const email = await within(card).findByRole('textbox', { name: "Patient's email address" });
    expect(email).toHaveValue('maria@example.com');
    expect(
      within(card).getByRole('checkbox', { name: 'Share every result, not only reviewed ones' }),
    ).not.toBeChecked();
    await userEvent.setup().click(within(card).getByRole('button', { name: 'Invite patient' }));
    expect(await within(card).findByText('Invited')).toHaveClass('badge--warning');
    expect(within(card).getByText(/Invitation sent to maria@example.com/)).toBeInTheDocument();
    const [request] = requestsTo(fake, 'POST', '/api/patients/p-1/share');
    expect(await request?.json()).toEqual({ email: 'maria@example.com', share_all: false });
  });

  it("shows the server's message when the address is refused, and stops sharing", async () => {
    const fake = doctorServer({
      'GET /api/patients/p-1/share': () =>
        json(200, { current: share({ status: 'active', acceptedAt: '2026-11-21T08:00:00Z' }) }),
      'POST /api/patients/p-1/share': () => json(422, { detail: 'Invalid email address.' }),
      'DELETE /api/patients/p-1/share': () => json(204),
    });
    renderApp('/patients/p-1');
    const card = await screen.findByRole('region', { name: 'Share with patient' });
    expect(await within(card).findByText('Shared')).toHaveClass('badge--success');
    const user = userEvent.setup();
    await user.click(within(card).getByRole('checkbox', { name: 'Share every result, not only reviewed ones' }));
    expect(await within(card).findByRole('alert')).toHaveTextContent('Invalid email address.');
    await user.click(within(card).getByRole('button', { name: 'Stop sharing' }));
    expect(await within(card).findByRole('button', { name: 'Invite patient' })).toBeInTheDocument();
    expect(requestsTo(fake, 'DELETE', '/api/patients/p-1/share')).toHaveLength(1);
  });
});
