import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, makeUser, mockServer, renderApp, requestsTo, signedOut } from '../../test/utils';

const CHALLENGE = { twoFactorRequired: true, challenge: 'challenge-token' };

async function passwordStep() {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), 'ada@example.com');
  await user.type(screen.getByLabelText('Password'), 'secret1');
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
  return user;
}

describe('Two-factor sign-in on the login page', () => {
  it('links to the password reset', () => {
    mockServer({ 'GET /api/auth/me': signedOut });
    renderApp('/login');
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
  });

  it('asks for the code after the password, then signs in', async () => {
    const server = mockServer({
      'GET /api/auth/me': signedOut,
      'POST /api/auth/login': () => json(200, CHALLENGE),
      'POST /api/auth/login/totp': () => json(200, makeUser({ twoFactorEnabled: true })),
    });
    renderApp('/login');
    const user = await passwordStep();

    const code = await screen.findByLabelText('Authentication code');
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/home'));
    const [request] = requestsTo(server, 'POST', '/api/auth/login/totp');
    expect(await request?.json()).toEqual({ challenge: 'challenge-token', code: '123456' });
  });

  it('takes a recovery code instead, and shows a wrong code in the banner', async () => {
    const server = mockServer({
      'GET /api/auth/me': signedOut,
      'POST /api/auth/login': () => json(200, CHALLENGE),
      'POST /api/auth/login/totp': () => json(401, { detail: 'Invalid authentication code.' }),
    });
    renderApp('/login');
    const user = await passwordStep();
    await screen.findByLabelText('Authentication code');

    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    await user.type(screen.getByLabelText('Recovery code'), 'abcde-fghjk');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid authentication code.');
    const [request] = requestsTo(server, 'POST', '/api/auth/login/totp');
    expect(await request?.json()).toEqual({ challenge: 'challenge-token', code: 'abcde-fghjk' });
    await user.click(screen.getByRole('button', { name: 'Back to sign in' }));
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
  });
});
