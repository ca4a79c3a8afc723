import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, makeUser, mockServer, renderApp, requestsTo } from '../../test/utils';

const activity = () => json(200, { patients: 0, screenings: 0, analyses: 0, reviews: 0 });

describe('Verify email on the profile', () => {
  it('offers to send a verification link while the email is not verified', async () => {
    const server = mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/profile/activity': activity,
      'POST /api/auth/verify-email/request': () => json(202),
    });
    const user = userEvent.setup();
    renderApp('/profile');
    expect(await screen.findByText('Email not verified')).toBeInTheDocument();
    expect(screen.queryByText('Verified Account')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Verify email' }));
    expect(await screen.findByText(/We sent a verification link to ada@example.com/)).toBeInTheDocument();
    expect(requestsTo(server, 'POST', '/api/auth/verify-email/request')).toHaveLength(1);
  });

  it('shows only the badge once verified', async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser({ emailVerified: true })),
      'GET /api/profile/activity': activity,
    });
    renderApp('/profile');
    expect(await screen.findByText('Verified Account')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Verify email' })).not.toBeInTheDocument();
  });
});
