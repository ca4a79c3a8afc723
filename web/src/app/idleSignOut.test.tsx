import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProviders, createQueryClient } from './providers';
import { AppRoutes } from './routes';
import { json, makeUser, mockServer, renderApp } from '../test/utils';

afterEach(() => sessionStorage.clear());

describe('Signed out after inactivity', () => {
  it('says so on the sign-in page when the server ended the idle session', async () => {
    mockServer({
      'GET /api/auth/me': () => json(401, { detail: 'You were signed out after a period of inactivity.' }),
    });
    renderApp('/patients');
    expect(await screen.findByRole('heading', { name: 'Sign in to Cardio' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      'You were signed out after a period of inactivity. Please sign in again.',
    );
  });

  it('signs out when a later request finds the session ended, and says it once', async () => {
    let idle = false;
    mockServer({
      'GET /api/auth/me': () => (idle ? json(401, { detail: 'Not authenticated.' }) : json(200, makeUser())),
      'GET /api/dashboard': () => {
        idle = true;
        return json(401, { detail: 'You were signed out after a period of inactivity.' });
      },
      'GET /api/audit': () => json(200, []),
    });
    // The application's own query client, whose caches sign out on a 401.
    const queryClient = createQueryClient();
    queryClient.setDefaultOptions({ queries: { retry: false, refetchOnWindowFocus: false } });
    render(
      <AppProviders queryClient={queryClient}>
        <MemoryRouter initialEntries={['/home']}>
          <AppRoutes />
        </MemoryRouter>
      </AppProviders>,
    );
    expect(await screen.findByRole('heading', { name: 'Sign in to Cardio' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('You were signed out after a period of inactivity.');
    expect(sessionStorage.length).toBe(0);
  });

  it('shows no notice on an ordinary visit to the sign-in page', async () => {
    mockServer({ 'GET /api/auth/me': () => json(401, { detail: 'Not authenticated.' }) });
    renderApp('/login');
    expect(await screen.findByRole('heading', { name: 'Sign in to Cardio' })).toBeInTheDocument();
    expect(screen.queryByText(/period of inactivity/)).not.toBeInTheDocument();
  });
});
