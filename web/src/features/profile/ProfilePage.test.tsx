import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, makeUser, mockServer, renderApp, requestsTo } from '../../test/utils';
import i18n from '../../i18n';
import { checkDisplayName } from './ProfilePage';

const activity = () => json(200, { patients: 4, screenings: 3, analyses: 9, reviews: 6 });

describe('checkDisplayName', () => {
  it('needs 1 to 100 characters once trimmed', () => {
    expect(checkDisplayName('   ')).toBe('profile.nameRequired');
    expect(checkDisplayName('é'.repeat(100))).toBeNull();
    expect(checkDisplayName('a'.repeat(101))).toBe('profile.nameTooLong');
  });
});

describe('Profile page', () => {
  it('labels a doctor "Healthcare Professional" and shows when they joined', async () => {
    mockServer({ 'GET /api/auth/me': () => json(200, makeUser()), 'GET /api/profile/activity': activity });
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

  it('shows a patient account no doctor statistics', async () => {
    const server = mockServer({
      'GET /api/auth/me': () => json(200, makeUser({ role: 'user' })),
      'GET /api/profile/activity': activity,
    });
    renderApp('/profile');
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace', level: 2 })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Activity' })).not.toBeInTheDocument();
    expect(screen.queryByText('Patients')).not.toBeInTheDocument();
    expect(requestsTo(server, 'GET', '/api/profile/activity')).toHaveLength(0);
  });

  it('shows "Verified Account" only for a verified email', async () => {
    mockServer({ 'GET /api/auth/me': () => json(200, makeUser({ emailVerified: true })) });
    renderApp('/profile');
    expect(await screen.findByText('Verified Account')).toBeInTheDocument();
  });

  it('shows the activity counted by the server', async () => {
    mockServer({ 'GET /api/auth/me': () => json(200, makeUser()), 'GET /api/profile/activity': activity });
    renderApp('/profile');
    const figures = within(await screen.findByRole('main'));
    expect((await figures.findByText('Patients')).previousElementSibling).toHaveTextContent('4');
    expect(figures.getByText('Screenings').previousElementSibling).toHaveTextContent('3');
    expect(figures.getByText('Analyses').previousElementSibling).toHaveTextContent('9');
    expect(figures.getByText('Reviews signed').previousElementSibling).toHaveTextContent('6');
  });
});

describe('Edit Profile', () => {
  it('saves the trimmed name and shows it on the page and in the sidebar', async () => {
    const server = mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'PATCH /api/auth/me': () => json(200, makeUser({ displayName: 'Ada King' })),
    });
    renderApp('/profile');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    const field = screen.getByLabelText('Display name');
    await user.clear(field);
    await user.type(field, '  Ada King ');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('heading', { name: 'Ada King', level: 2 })).toBeInTheDocument();
    expect(screen.getByRole('complementary')).toHaveTextContent('Ada King');
    const [request] = requestsTo(server, 'PATCH', '/api/auth/me');
    expect(await request?.json()).toEqual({ display_name: 'Ada King' });
  });

  it('refuses an empty name without asking the server', async () => {
    const server = mockServer({ 'GET /api/auth/me': () => json(200, makeUser()) });
    renderApp('/profile');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    await user.clear(screen.getByLabelText('Display name'));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(screen.getByRole('alert')).toHaveTextContent('Display name is required.');
    expect(requestsTo(server, 'PATCH', '/api/auth/me')).toHaveLength(0);
  });

  it("shows the server's message when it refuses the name", async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'PATCH /api/auth/me': () => json(422, { detail: 'Display name must be at most 100 characters.' }),
    });
    renderApp('/profile');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    await user.type(screen.getByLabelText('Display name'), ' II');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Display name must be at most 100 characters.');
    expect(screen.getByLabelText('Display name')).toBeInTheDocument();
  });
});

async function fillPassword(values: { current?: string; next: string; confirm: string }) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Current password'), values.current ?? 'old-secret');
  await user.type(screen.getByLabelText('New password'), values.next);
  await user.type(screen.getByLabelText('Confirm new password'), values.confirm);
  await user.click(screen.getByRole('button', { name: 'Change Password' }));
}

describe('Change Password', () => {
  it('checks that the passwords match, then the 6-character rule, before any request', async () => {
    const server = mockServer({ 'GET /api/auth/me': () => json(200, makeUser()) });
    renderApp('/profile');
    await fillPassword({ next: 'abc', confirm: 'abd' });
    expect(screen.getByRole('alert')).toHaveTextContent('Passwords do not match');

    const user = userEvent.setup();
    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'abc');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Password must be at least 6 characters');
    expect(requestsTo(server, 'POST', '/api/auth/password')).toHaveLength(0);
  });

  it('shows the refusal of a wrong current password', async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'POST /api/auth/password': () => json(403, { detail: 'Current password is incorrect.' }),
    });
    renderApp('/profile');
    await fillPassword({ current: 'wrong', next: 'new-secret', confirm: 'new-secret' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Current password is incorrect.');
  });

  it("shows the refusal of a common password in the user's language", async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'POST /api/auth/password': () =>
        json(422, {
          detail: 'This password is one of the most commonly used and easily guessed. Please choose another.',
          code: 'password_too_common',
        }),
    });
    await i18n.changeLanguage('es');
    renderApp('/profile');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Contraseña actual'), 'old-secret');
    await user.type(screen.getByLabelText('Nueva contraseña'), 'password1');
    await user.type(screen.getByLabelText('Confirmar nueva contraseña'), 'password1');
    await user.click(screen.getByRole('button', { name: 'Cambiar contraseña' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Esta contraseña es de las más usadas y fáciles de adivinar. Elija otra.',
    );
  });

  it('sends the current and new password and confirms the change', async () => {
    const server = mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'POST /api/auth/password': () => json(204),
    });
    renderApp('/profile');
    await fillPassword({ next: 'new-secret', confirm: 'new-secret' });

    expect(await screen.findByText('Password changed. Your other sessions have been signed out.')).toBeInTheDocument();
    const [request] = requestsTo(server, 'POST', '/api/auth/password');
    expect(await request?.json()).toEqual({ current_password: 'old-secret', new_password: 'new-secret' });
    await waitFor(() => expect(screen.getByLabelText('New password')).toHaveValue(''));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
