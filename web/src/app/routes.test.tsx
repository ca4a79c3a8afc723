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
