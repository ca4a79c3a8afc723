import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockServer, renderApp, requestsTo, signedOut } from '../../test/utils';

describe('Forgot password page', () => {
  it('asks for a reset link and shows the same answer whatever the address', async () => {
    const server = mockServer({
      'GET /api/auth/me': signedOut,
      'POST /api/auth/password-reset/request': () => json(202),
    });
    const user = userEvent.setup();
    renderApp('/forgot-password');
    await user.type(screen.getByLabelText('Email'), ' Ada@Example.com ');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));

    expect(await screen.findByRole('status')).toHaveTextContent(
      'If an account exists for that email, we have sent a link to reset its password.',
    );
    const [request] = requestsTo(server, 'POST', '/api/auth/password-reset/request');
    expect(await request?.json()).toEqual({ email: 'Ada@Example.com' });
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login');
  });
});

describe('Reset password page', () => {
  it('checks the passwords on the client, then sends the token from the link', async () => {
    const server = mockServer({
      'GET /api/auth/me': signedOut,
      'POST /api/auth/password-reset': () => json(204),
    });
    const user = userEvent.setup();
    renderApp('/reset-password?token=sel.secret');
    await user.type(screen.getByLabelText('New password'), 'abc');
    await user.type(screen.getByLabelText('Confirm new password'), 'abc');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Password must be at least 6 characters');
    expect(requestsTo(server, 'POST', '/api/auth/password-reset')).toHaveLength(0);

    await user.clear(screen.getByLabelText('New password'));
    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('New password'), 'new-secret-1');
    await user.type(screen.getByLabelText('Confirm new password'), 'new-secret-1');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Your password has been changed.');
    const [request] = requestsTo(server, 'POST', '/api/auth/password-reset');
    expect(await request?.json()).toEqual({ token: 'sel.secret', new_password: 'new-secret-1' });
  });

  it('shows the server refusing a used or expired link', async () => {
    mockServer({
      'GET /api/auth/me': signedOut,
      'POST /api/auth/password-reset': () => json(422, { detail: 'This link is invalid or has expired.' }),
    });
    const user = userEvent.setup();
    renderApp('/reset-password?token=sel.used');
    await user.type(screen.getByLabelText('New password'), 'new-secret-1');
    await user.type(screen.getByLabelText('Confirm new password'), 'new-secret-1');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is invalid or has expired.');
  });

  it('says so when the link has no token', () => {
    mockServer({ 'GET /api/auth/me': signedOut });
    renderApp('/reset-password');
    expect(screen.getByRole('alert')).toHaveTextContent('This link is incomplete.');
    expect(screen.queryByRole('button', { name: 'Set new password' })).not.toBeInTheDocument();
  });
});

describe('Verify email page', () => {
  it('verifies the token once on arrival', async () => {
    const server = mockServer({
      'GET /api/auth/me': signedOut,
      'POST /api/auth/verify-email': () => json(204),
    });
    renderApp('/verify-email?token=sel.secret');
    expect(await screen.findByText('Your email address is verified.')).toBeInTheDocument();
    await waitFor(() => expect(requestsTo(server, 'POST', '/api/auth/verify-email')).toHaveLength(1));
    const [request] = requestsTo(server, 'POST', '/api/auth/verify-email');
    expect(await request?.json()).toEqual({ token: 'sel.secret' });
  });

  it('shows an expired link', async () => {
    mockServer({
      'GET /api/auth/me': signedOut,
      'POST /api/auth/verify-email': () => json(422, { detail: 'This link is invalid or has expired.' }),
    });
    renderApp('/verify-email?token=sel.old');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is invalid or has expired.');
  });
});
