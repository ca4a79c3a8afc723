import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { deferred, json, makeUser, mockServer, renderApp, requestsTo, signedOut } from '../../test/utils';

async function signIn(email = 'ada@example.com', password = 'secret1') {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('Login page', () => {
  it('has email and password fields, a Sign In button and a link to signup', () => {
    mockServer({ 'GET /api/auth/me': signedOut });
    renderApp('/login');
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/signup');
  });

  it("shows the server's detail in a red banner above the form", async () => {
    mockServer({
      'GET /api/auth/me': signedOut,
      'POST /api/auth/login': () => json(401, { detail: 'Invalid email or password. Please try again.' }),
    });
    const { container } = renderApp('/login');
    await signIn();
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Invalid email or password. Please try again.');
    expect(banner).toHaveClass('error-banner');
    expect(banner.compareDocumentPosition(container.querySelector('form') as Node)).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
  });

  it('shows the rate-limit message', async () => {
    mockServer({
      'GET /api/auth/me': signedOut,
      'POST /api/auth/login': () => json(429, { detail: 'Too many failed attempts. Please try again later.' }),
    });
    renderApp('/login');
    await signIn();
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many failed attempts. Please try again later.');
  });

  it('falls back to `message` when the server sends no `detail`', async () => {
    mockServer({
      'GET /api/auth/me': signedOut,
      'POST /api/auth/login': () => json(400, { message: 'Bad request body.' }),
    });
    renderApp('/login');
    await signIn();
    expect(await screen.findByRole('alert')).toHaveTextContent('Bad request body.');
  });

  it('shows the network message when the server cannot be reached', async () => {
    mockServer({
      'GET /api/auth/me': signedOut,
      'POST /api/auth/login': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    renderApp('/login');
    await signIn();
    expect(await screen.findByRole('alert')).toHaveTextContent('Network error. Please check your internet connection.');
  });

  it('shows the generic login message for a server error', async () => {
    mockServer({ 'GET /api/auth/me': signedOut, 'POST /api/auth/login': () => json(503) });
    renderApp('/login');
    await signIn();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to login. Please check your credentials.');
  });

  it('shows "Signing in..." while busy, then goes to /home', async () => {
    const pending = deferred<Response>();
    const server = mockServer({ 'GET /api/auth/me': signedOut, 'POST /api/auth/login': () => pending.promise });
    renderApp('/login');
    await signIn('ada@example.com', 'secret1');
    expect(await screen.findByRole('button', { name: 'Signing in...' })).toBeDisabled();
    pending.resolve(json(200, makeUser()));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/home'));
    const [request] = requestsTo(server, 'POST', '/api/auth/login');
    expect(await request?.json()).toEqual({ email: 'ada@example.com', password: 'secret1' });
    expect(request?.credentials).toBe('same-origin');
  });
});
