import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makePatient, makeScreening } from '../../test/fixtures';
import { json, makeUser, mockServer, renderApp, requestsTo, type Handler } from '../../test/utils';

const PATIENT = makePatient();
const SCREENING = makeScreening();

function server(handlers: Record<string, Handler> = {}) {
  return mockServer({
    'GET /api/auth/me': () => json(200, makeUser()),
    'POST /api/patients': () => json(201, PATIENT),
    'POST /api/screenings': () => json(201, SCREENING),
    'GET /api/screenings/s-1': () => json(200, SCREENING),
    ...handlers,
  });
}

async function fillRequired(user: ReturnType<typeof userEvent.setup>, overrides: { dateOfBirth?: string } = {}) {
  await user.type(await screen.findByLabelText('First Name'), 'María');
  await user.type(screen.getByLabelText('Last Name'), 'López');
  await user.type(screen.getByLabelText('Date of Birth'), overrides.dateOfBirth ?? '1980-04-02');
  await user.selectOptions(screen.getByLabelText('Gender'), 'female');
  await user.type(screen.getByLabelText('Phone Number'), '+34 600 000 000');
}

describe('Intake page', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the three sections and the two buttons', async () => {
    server();
    renderApp('/intake');
    for (const name of ['Personal Information', 'Address', 'Medical Information']) {
      expect(await screen.findByRole('group', { name })).toBeInTheDocument();
    }
    expect(screen.getByRole('link', { name: 'Cancel' })).toHaveAttribute('href', '/patients');
    expect(screen.getByRole('button', { name: 'Continue to Clinical Data' })).toBeEnabled();
  });

  it('reports every missing required field and sends nothing', async () => {
    const fake = server();
    renderApp('/intake');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Continue to Clinical Data' }));
    for (const text of [
      'First name is required.',
      'Last name is required.',
      'Date of birth is required.',
      'Gender is required.',
      'Phone is required.',
      'Invalid email address.',
    ]) {
      expect(screen.getByText(text)).toBeInTheDocument();
    }
    expect(screen.getByLabelText('First Name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('First Name')).toHaveAccessibleDescription('First name is required.');
    expect(screen.getByLabelText('First Name')).toHaveFocus();
    expect(requestsTo(fake, 'POST', '/api/patients')).toHaveLength(0);
  });

  it('refuses a date of birth in the future', async () => {
    const fake = server();
    renderApp('/intake');
    const user = userEvent.setup();
    await fillRequired(user, { dateOfBirth: '2999-01-01' });
    await user.click(screen.getByRole('button', { name: 'Continue to Clinical Data' }));
    expect(screen.getByText('Date of birth cannot be in the future.')).toBeInTheDocument();
    expect(requestsTo(fake, 'POST', '/api/patients')).toHaveLength(0);
  });

  it("shows the server's detail when it disagrees, keeping what was typed", async () => {
    server({ 'POST /api/patients': () => json(422, { detail: 'Invalid email address.' }) });
    renderApp('/intake');
    const user = userEvent.setup();
    await fillRequired(user);
    await user.type(screen.getByLabelText('Email'), 'maria@-bad.example');
    await user.click(screen.getByRole('button', { name: 'Continue to Clinical Data' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email address.');
    expect(screen.getByLabelText('First Name')).toHaveValue('María');
    expect(screen.getByLabelText('Email')).toHaveValue('maria@-bad.example');
  });

  it('shows the generic message for a server failure', async () => {
    server({ 'POST /api/patients': () => json(500, { detail: 'Internal server error.' }) });
    renderApp('/intake');
    const user = userEvent.setup();
    await fillRequired(user);
    await user.click(screen.getByRole('button', { name: 'Continue to Clinical Data' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to add patient. Please try again.');
    expect(screen.getByLabelText('Last Name')).toHaveValue('López');
  });

  it('saves, starts a screening and goes to clinical data after 1.5 s', async () => {
    const fake = server();
    renderApp('/intake');
    const user = userEvent.setup();
    await fillRequired(user);
    await user.type(screen.getByLabelText('City'), 'Sevilla');
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    await user.click(screen.getByRole('button', { name: 'Continue to Clinical Data' }));
    expect(await screen.findByText('Patient Added Successfully!')).toBeInTheDocument();
    expect(screen.getByText('Redirecting to clinical data collection...')).toBeInTheDocument();
    await waitFor(() => expect(requestsTo(fake, 'POST', '/api/screenings')).toHaveLength(1));

    const [created] = requestsTo(fake, 'POST', '/api/patients');
    expect(await created?.json()).toMatchObject({
      firstName: 'María',
      lastName: 'López',
      dateOfBirth: '1980-04-02',
      gender: 'female',
      phone: '+34 600 000 000',
      city: 'Sevilla',
      email: null,
    });
    const [screening] = requestsTo(fake, 'POST', '/api/screenings');
    expect(await screening?.json()).toEqual({ patient_id: 'p-1' });

    act(() => vi.advanceTimersByTime(1300));
    expect(screen.getByTestId('location')).toHaveTextContent('/intake');
    act(() => vi.advanceTimersByTime(300));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/clinical-data?screening=s-1'));
  });

  it('tells a user-role account that patient records are for professionals', async () => {
    const fake = mockServer({ 'GET /api/auth/me': () => json(200, makeUser({ role: 'user' })) });
    renderApp('/intake');
    expect(await screen.findByText('Only healthcare professionals can access patient records.')).toBeInTheDocument();
    expect(screen.queryByLabelText('First Name')).not.toBeInTheDocument();
    expect(requestsTo(fake, 'POST', '/api/patients')).toHaveLength(0);
  });
});
