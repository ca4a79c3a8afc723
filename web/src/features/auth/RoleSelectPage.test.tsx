import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockServer, renderApp, signedOut } from '../../test/utils';

describe('Role selection', () => {
  it('shows two cards with the spec buttons and a way back', () => {
    mockServer({ 'GET /api/auth/me': signedOut });
    renderApp('/auth');
    const doctor = screen.getByRole('region', { name: 'Healthcare Professional' });
    expect(within(doctor).getByRole('link', { name: "I'm a Doctor" })).toHaveAttribute('href', '/login');
    expect(within(doctor).getByRole('link', { name: 'Sign Up as Doctor' })).toHaveAttribute('href', '/signup');
    const patient = screen.getByRole('region', { name: 'Patient / User' });
    expect(within(patient).getByRole('link', { name: "I'm a User" })).toHaveAttribute('href', '/login');
    expect(within(patient).getByRole('link', { name: 'Sign Up as User' })).toHaveAttribute('href', '/signup');
    expect(screen.getByRole('link', { name: 'Back to Welcome' })).toHaveAttribute('href', '/');
  });

  it('passes the chosen role on to the signup page', async () => {
    mockServer({ 'GET /api/auth/me': signedOut });
    renderApp('/auth');
    await userEvent.setup().click(screen.getByRole('link', { name: 'Sign Up as User' }));
    expect(await screen.findByRole('button', { name: 'Create Account' })).toBeInTheDocument();
    expect(screen.getByText('Patient / User')).toBeInTheDocument();
  });
});
