import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { deferred, json, makeUser, mockServer, renderApp, requestsTo, signedOut } from '../test/utils';

describe('Route guard', () => {
  it('shows "Loading..." while the session is checked, then redirects to /login', async () => {
    const me = deferred<Response>();
    mockServer({ 'GET /api/auth/me': () => me.promise });
    renderApp('/patients');
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    me.resolve(signedOut(new Request('http://localhost/api/auth/me')) as Response);
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
  });

  it('returns to the page the user wanted after signing in', async () => {
    let signedIn = false;
    mockServer({
      'GET /api/auth/me': () => (signedIn ? json(200, makeUser()) : signedOut(new Request('http://x'))),
      'POST /api/auth/login': () => {
        signedIn = true;
        return json(200, makeUser());
      },
    });
    renderApp('/patients?q=ada');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('heading', { name: 'Patients', level: 1 })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/patients?q=ada');
  });

  it('treats a 401 from /me as signed out and an outage as an error with a retry', async () => {
    mockServer({ 'GET /api/auth/me': () => json(503, { detail: 'Unavailable.' }) });
    renderApp('/home');
    expect(await screen.findByText('Cannot reach the server', {}, { timeout: 4000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe('Routing', () => {
  it('sends an unknown path to the welcome page', async () => {
    mockServer({ 'GET /api/auth/me': signedOut });
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    expect(screen.getAllByRole('link', { name: 'Get Started Now' })[0]).toHaveAttribute('href', '/auth');
  });

  it.each([
    ['/home', 'Welcome back, Ada Lovelace'],
    ['/patients', 'Patients'],
    ['/intake', 'Patient Intake'],
    ['/clinical-data', 'Clinical Data Collection'],
    ['/sensor-pcg', 'PCG Sensor'],
    ['/sensor-ppg', 'PPG Sensor'],
    ['/sensor-ecg', 'ECG Sensor'],
    ['/test-results', 'Test Results'],
    ['/reports', 'Reports'],
    ['/devices', 'Device Management'],
    ['/profile', 'Profile'],
    ['/settings', 'Settings'],
  ])('renders %s for a signed-in user', async (path, heading) => {
    mockServer({ 'GET /api/auth/me': () => json(200, makeUser()), 'GET /api/health': () => json(503) });
    renderApp(path);
    expect(await screen.findByRole('heading', { name: heading, level: 1 })).toBeInTheDocument();
  });
});

describe('Sidebar', () => {
  it('lists the entries in order, with "Start Analysis" spelled right', async () => {
    mockServer({ 'GET /api/auth/me': () => json(200, makeUser()) });
    renderApp('/home');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      'Home',
      'Patients',
      'Start Analysis',
      'Test Results',
      'Reports',
      'Devices',
      'Profile',
      'Settings',
    ]);
    expect(within(nav).getByRole('link', { name: 'Start Analysis' })).toHaveAttribute('href', '/intake');
    expect(screen.queryByText(/Analyzis/)).not.toBeInTheDocument();
  });

  it("shows the user's name and email, or the email when there is no name", async () => {
    mockServer({ 'GET /api/auth/me': () => json(200, makeUser({ displayName: '' })) });
    const { container } = renderApp('/home');
    await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(container.querySelector('.sidebar__user-name')).toHaveTextContent('ada@example.com');
    expect(container.querySelector('.sidebar__user-email')).toHaveTextContent('ada@example.com');
  });

  it('logs out, forgets the session and goes to /login', async () => {
    let signedIn = true;
    const server = mockServer({
      'GET /api/auth/me': () => (signedIn ? json(200, makeUser()) : signedOut(new Request('http://x'))),
      'POST /api/auth/logout': () => {
        signedIn = false;
        return json(204);
      },
    });
    const { queryClient } = renderApp('/settings');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(requestsTo(server, 'POST', '/api/auth/logout')).toHaveLength(1);
    expect(queryClient.getQueryData(['auth', 'me'])).toBeNull();
    expect(queryClient.getQueryData(['health'])).toBeUndefined();
  });
});

describe('A patient account (role user)', () => {
  const ACCESS_TITLE = 'Patient records are for healthcare professionals';
  const ACCESS_TEXT = 'Only healthcare professionals can access patient records.';

  /** The server as a patient sees it: every doctor endpoint answers 403, unknown ones 404. */
  function patientServer() {
    const doctorsOnly = () => json(403, { detail: 'Only doctor accounts can do this.' });
    return mockServer({
      'GET /api/auth/me': () => json(200, makeUser({ role: 'user', displayName: 'Pat Ient' })),
      'GET /api/health': () => json(503),
      'GET /api/patients': doctorsOnly,
      'GET /api/patients/p-1': doctorsOnly,
      'GET /api/screenings/s-1': doctorsOnly,
      'GET /api/reports/summary': doctorsOnly,
      'GET /api/reports/history': doctorsOnly,
      'GET /api/devices': doctorsOnly,
      'GET /api/devices/recordings': doctorsOnly,
      'GET /api/devices/log': doctorsOnly,
      'GET /api/dashboard': doctorsOnly,
      'GET /api/shared/invitations': () => json(200, []),
      'GET /api/shared/results': () => json(200, []),
      'GET /api/analyses': () => json(200, []),
      'GET /api/analyses/a-1': () =>
        json(200, {
          id: 'a-1',
          modality: 'clinical',
          patientId: null,
          patientName: null,
          screeningId: null,
          fileName: null,
          fileSha256: null,
          fileSize: null,
          files: [],
          modelId: 'clinical-cad-logreg',
          modelVersion: '1.0.0',
          createdAt: '2026-11-20T10:30:00.000Z',
          result: {
            analysis_id: 'a-1',
            model: 'Clinical',
            label: 'low',
            prediction: 'Low likelihood of coronary artery disease',
            confidence: 0.8,
            risk_score: 0.2,
            recommendations: [],
            details: {},
          },
        }),
      'GET /api/analyses/a-1/reviews': () => json(200, []),
    });
  }

  it.each([
    '/patients',
    '/patients/p-1',
    '/intake',
    '/clinical-data?screening=s-1',
    '/sensor-pcg?screening=s-1',
    '/sensor-ppg?screening=s-1',
    '/sensor-ecg?screening=s-1',
    '/reports',
    '/devices',
  ])('is told %s is for healthcare professionals, and no doctor request is made', async (path) => {
    const fake = patientServer();
    renderApp(path);
    expect(await screen.findByText(ACCESS_TITLE)).toBeInTheDocument();
    expect(screen.getByText(ACCESS_TEXT)).toBeInTheDocument();
    expect(screen.queryByText(/could not|error loading|unavailable/i)).not.toBeInTheDocument();
    // Nothing but what the signed-in shell itself reads: the account and its settings.
    const asked = fake.mock.calls.map(([request]) => {
      const r = request as Request;
      return `${r.method} ${new URL(r.url).pathname}`;
    });
    expect(asked).toContain('GET /api/auth/me');
    expect(asked.filter((call) => call !== 'GET /api/auth/me' && call !== 'GET /api/settings')).toEqual([]);
  });

  it.each([
    ['/home', 'Welcome back, Pat Ient'],
    ['/test-results', 'Test Results'],
    ['/analyses/a-1', 'Clinical Analysis'],
    ['/profile', 'Profile'],
    ['/settings', 'Settings'],
  ])('uses %s as usual', async (path, heading) => {
    patientServer();
    renderApp(path);
    expect(await screen.findByRole('heading', { name: heading, level: 1 })).toBeInTheDocument();
    expect(screen.queryByText(ACCESS_TITLE)).not.toBeInTheDocument();
  });

  it('has no sidebar entry for the doctor pages', async () => {
    patientServer();
    renderApp('/home');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Home', 'Test Results', 'Profile', 'Settings']);
  });
});
