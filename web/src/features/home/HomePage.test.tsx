import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../api/client';
import { json, makeUser, mockServer, renderApp, requestsTo } from '../../test/utils';

function entry(overrides: Partial<AuditEntry>): AuditEntry {
  return {
    id: 1,
    action: 'create',
    entity: 'patient',
    entityId: 'p-1',
    patientId: 'p-1',
    patientName: 'María López',
    clientAddr: '127.0.0.1',
    at: new Date(Date.now() - 2 * 60 * 1000).toISOString(),
    ...overrides,
  };
}

describe('Home page', () => {
  it("shows the doctor's real figures, asking for today since local midnight", async () => {
    const fake = mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/dashboard': () =>
        json(200, {
          totalPatients: 12,
          screeningsToday: 3,
          testsToday: 5,
          needsReviewToday: 1,
          pendingReviews: 4,
          devicesActive: 2,
        }),
      'GET /api/audit': () => json(200, []),
    });
    renderApp('/home');
    const total = await screen.findByText('Total Patients');
    expect(total.previousElementSibling).toHaveTextContent('12');
    // The spec's four cards, in its order.
    const cards = screen.getByText('Total Patients').closest('ul');
    expect(
      within(cards as HTMLElement)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['12Total Patients', '5Tests Today', '4Pending Reviews', '2Devices Active']);
    expect(screen.getByText('Tests Today').previousElementSibling).toHaveTextContent('5');
    expect(screen.getByText('Pending Reviews').previousElementSibling).toHaveTextContent('4');
    expect(screen.getByText('Devices Active').previousElementSibling).toHaveTextContent('2');
    const [request] = requestsTo(fake, 'GET', '/api/dashboard');
    const now = new Date();
    const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
    expect(new URL(request?.url ?? '').searchParams.get('since')).toBe(String(midnight));
    expect(screen.getByText('No activity yet')).toBeInTheDocument();
  });

  it('lists the recent activity as readable lines', async () => {
    const fake = mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/dashboard': () =>
        json(200, { totalPatients: 1, screeningsToday: 1, testsToday: 0, needsReviewToday: 0, pendingReviews: 0 }),
      'GET /api/audit': () =>
        json(200, [
          entry({ id: 3, action: 'create', entity: 'clinical' }),
          entry({ id: 2, action: 'create', entity: 'screening' }),
          entry({ id: 1 }),
        ]),
    });
    renderApp('/home');
    const section = (await screen.findByRole('heading', { name: 'Recent Activity' })).closest('section') as HTMLElement;
    const items = await within(section).findAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Clinical data saved·María López·2 minutes ago',
      'Screening started·María López·2 minutes ago',
      'Patient created·María López·2 minutes ago',
    ]);
    const [request] = requestsTo(fake, 'GET', '/api/audit');
    expect(new URL(request?.url ?? '').searchParams.get('limit')).toBe('10');
  });

  it('says what each activity was about', async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/dashboard': () =>
        json(200, { totalPatients: 1, screeningsToday: 1, testsToday: 0, needsReviewToday: 0, pendingReviews: 0 }),
      'GET /api/audit': () =>
        json(200, [
          entry({ id: 4, action: 'create', entity: 'analysis_review' }),
          entry({ id: 3, action: 'export', entity: 'analyses_csv', entityId: '', patientId: null, patientName: null }),
          entry({ id: 2, action: 'create', entity: 'analysis', patientId: null, patientName: null }),
          entry({ id: 1, action: 'update', entity: 'device_token', patientId: null, patientName: null }),
        ]),
    });
    renderApp('/home');
    const section = (await screen.findByRole('heading', { name: 'Recent Activity' })).closest('section') as HTMLElement;
    const items = await within(section).findAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Result reviewed·María López·2 minutes ago',
      'Analyses exported (CSV)·2 minutes ago',
      'Analysis run·no patient·2 minutes ago',
      'Record activity (device token)·2 minutes ago',
    ]);
  });

  it('offers a patient account no model dialogs: its doctors run the models', async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser({ role: 'user' })),
      'GET /api/shared/invitations': () => json(200, []),
      'GET /api/shared/results': () => json(200, []),
    });
    renderApp('/home');
    expect(await screen.findByRole('heading', { name: 'My results' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Analysis models' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^ECG/ })).not.toBeInTheDocument();
  });

  it('shows a user-role account their shared results instead of doctor figures', async () => {
    const fake = mockServer({
      'GET /api/auth/me': () => json(200, makeUser({ role: 'user' })),
      'GET /api/shared/invitations': () => json(200, []),
      'GET /api/shared/results': () => json(200, []),
    });
    renderApp('/home');
    expect(await screen.findByRole('heading', { name: 'My results' })).toBeInTheDocument();
    expect(await screen.findByText('No shared results yet')).toBeInTheDocument();
    expect(requestsTo(fake, 'GET', '/api/dashboard')).toHaveLength(0);
    expect(requestsTo(fake, 'GET', '/api/audit')).toHaveLength(0);
    expect(screen.queryByText('Patient figures are shown to healthcare professionals only.')).not.toBeInTheDocument();
    // The sidebar offers a patient account no doctor pages.
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Home', 'Test Results', 'Profile', 'Settings']);
  });
});
