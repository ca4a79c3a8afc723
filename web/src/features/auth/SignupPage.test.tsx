import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { deferred, json, makeUser, mockServer, renderApp, requestsTo, signedOut } from '../../test/utils';
import i18n from '../../i18n';
import { checkSignup } from './SignupPage';

async function fillSignup(values: { name?: string; email?: string; password: string; confirm: string }) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Full Name'), values.name ?? 'Ada Lovelace');
  await user.type(screen.getByLabelText('Email Address'), values.email ?? 'ada@example.com');
  await user.type(screen.getByLabelText('Password'), values.password);
  await user.type(screen.getByLabelText('Confirm Password'), values.confirm);
  await user.click(screen.getByRole('button', { name: 'Create Account' }));
}

describe('checkSignup', () => {
  it('checks that the passwords match before checking the length', () => {
    expect(checkSignup('abc', 'abd')).toBe('errors.passwordsMismatch');
    expect(checkSignup('abc', 'abc')).toBe('errors.passwordTooShort');
    expect(checkSignup('abcdef', 'abcdef')).toBeNull();
  });
});

describe('Signup page', () => {
  it('shows the four fields, the placeholder and a link to login', () => {
    mockServer({ 'GET /api/auth/me': signedOut });
    renderApp('/signup');
    expect(screen.getByLabelText('Full Name')).toBeInTheDocument();
    expect(screen.getByLabelText('Email Address')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Password')).toHaveAttribute('placeholder', 'At least 6 characters');
    expect(screen.getByLabelText('Confirm Password')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  });

  it('reports mismatching passwords first, even when they are also too short', async () => {
    const server = mockServer({ 'GET /api/auth/me': signedOut });
    renderApp('/signup');
    await fillSignup({ password: 'abc', confirm: 'abcd' });
    expect(screen.getByRole('alert')).toHaveTextContent('Passwords do not match');
    expect(requestsTo(server, 'POST', '/api/auth/signup')).toHaveLength(0);
  });

  it('reports a password shorter than 6 characters', async () => {
    const server = mockServer({ 'GET /api/auth/me': signedOut });
    renderApp('/signup');
    await fillSignup({ password: 'abc12', confirm: 'abc12' });
    expect(screen.getByRole('alert')).toHaveTextContent('Password must be at least 6 characters');
    expect(requestsTo(server, 'POST', '/api/auth/signup')).toHaveLength(0);
  });

  it('signs up as a doctor by default and goes to /home', async () => {
    const server = mockServer({
      'GET /api/auth/me': signedOut,
      'POST /api/auth/signup': () => json(201, makeUser()),
    });
    renderApp('/signup');
    expect(screen.getByText('Healthcare Professional')).toBeInTheDocument();
    await fillSignup({ password: 'secret1', confirm: 'secret1' });
    expect(await screen.findByRole('heading', { name: 'Welcome back, Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/home');
    const [request] = requestsTo(server, 'POST', '/api/auth/signup');
    expect(await request?.json()).toEqual({
      full_name: 'Ada Lovelace',
      email: 'ada@example.com',
      password: 'secret1',
      role: 'doctor',
    });
  });

  it('sends the role chosen on the role selection page', async () => {
    const server = mockServer({
      'GET /api/auth/me': signedOut,
      'POST /api/auth/signup': () => json(201, makeUser({ role: 'user' })),
    });
    renderApp({ pathname: '/signup', state: { role: 'user' } });
    expect(screen.getByText('Patient / User')).toBeInTheDocument();
    await fillSignup({ password: 'secret1', confirm: 'secret1' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/home'));
    const [request] = requestsTo(server, 'POST', '/api/auth/signup');
    expect(await request?.json()).toMatchObject({ role: 'user' });
  });

  it('shows "Creating account..." while the request is in flight', async () => {
    const pending = deferred<Response>();
    mockServer({ 'GET /api/auth/me': signedOut, 'POST /api/auth/signup': () => pending.promise });
    renderApp('/signup');
    await fillSignup({ password: 'secret1', confirm: 'secret1' });
    expect(await screen.findByRole('button', { name: 'Creating account...' })).toBeDisabled();
    pending.resolve(json(409, { detail: 'An account with this email already exists.' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('An account with this email already exists.');
    expect(screen.getByRole('button', { name: 'Create Account' })).toBeEnabled();
  });

  it("shows the server's detail for a rejected email", async () => {
    mockServer({
      'GET /api/auth/me': signedOut,
      'POST /api/auth/signup': () => json(422, { detail: 'Invalid email address.' }),
    });
    renderApp('/signup');
    await fillSignup({ password: 'secret1', confirm: 'secret1' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email address.');
  });

  it("shows the server's refusal of a common password and of too many sign-ups, in the user's language", async () => {
    const answers = [
      json(422, {
        detail: 'This password is one of the most commonly used and easily guessed. Please choose another.',
        code: 'password_too_common',
      }),
      json(429, {
        detail: 'Too many accounts were created from this network. Please try again later.',
        code: 'too_many_signups',
      }),
    ];
    mockServer({ 'GET /api/auth/me': signedOut, 'POST /api/auth/signup': () => answers.shift()! });
    await i18n.changeLanguage('fr');
    renderApp('/signup');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Nom complet'), 'Ada Lovelace');
    await user.type(screen.getByLabelText('Adresse e-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Mot de passe'), 'password');
    await user.type(screen.getByLabelText('Confirmer le mot de passe'), 'password');
    await user.click(screen.getByRole('button', { name: 'Créer le compte' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Ce mot de passe fait partie des plus courants et des plus faciles à deviner. Veuillez en choisir un autre.',
    );
    await user.click(screen.getByRole('button', { name: 'Créer le compte' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Trop de comptes ont été créés depuis ce réseau. Veuillez réessayer plus tard.',
      ),
    );
  });

  it('shows the network message when no response arrives', async () => {
    mockServer({
      'GET /api/auth/me': signedOut,
      'POST /api/auth/signup': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    renderApp('/signup');
    await fillSignup({ password: 'secret1', confirm: 'secret1' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Network error. Please check your internet connection.');
  });

  it('shows the generic message for a server failure', async () => {
    mockServer({
      'GET /api/auth/me': signedOut,
      'POST /api/auth/signup': () => json(500, { detail: 'Internal server error.' }),
    });
    renderApp('/signup');
    await fillSignup({ password: 'secret1', confirm: 'secret1' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to create account. Please try again.');
  });
});
