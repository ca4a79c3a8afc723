import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, makeUser, mockServer, renderApp } from '../../test/utils';

describe('Profile page', () => {
  it('labels a doctor "Healthcare Professional" and shows when they joined', async () => {
    mockServer({ 'GET /api/auth/me': () => json(200, makeUser()) });
    renderApp('/profile');
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace', level: 2 })).toBeInTheDocument();
    expect(screen.getByText('Healthcare Professional')).toBeInTheDocument();
    expect(screen.getByText('Member Since').nextElementSibling).toHaveTextContent('March 14, 2025');
    expect(screen.queryByText(/Verified/)).not.toBeInTheDocument();
  });

  it('labels a user "Patient" and falls back to "User" without a name', async () => {
    mockServer({ 'GET /api/auth/me': () => json(200, makeUser({ role: 'user', displayName: '' })) });
    renderApp('/profile');
    expect(await screen.findByRole('heading', { name: 'User', level: 2 })).toBeInTheDocument();
    expect(screen.getByText('Patient')).toBeInTheDocument();
  });
});
