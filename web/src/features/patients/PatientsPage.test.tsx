import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makePatient, makeScreening } from '../../test/fixtures';
import { deferred, json, makeUser, mockServer, renderApp, requestsTo, type Handler } from '../../test/utils';

const MARIA = makePatient({
  lastResult: {
    analysisId: 'a-7',
    modality: 'ecg',
    label: 'af',
    prediction: 'Atrial fibrillation suspected',
    riskScore: 0.82,
    createdAt: '2026-11-20T10:00:00Z',
  },
});
const JEAN = makePatient({
  id: 'p-2',
  firstName: 'Jean',
  lastName: 'Dupont',
  gender: 'male',
  phone: '555 0101',
  status: 'inactive',
  dateOfBirth: '1955-12-31',
});

function server(list: Handler) {
  return mockServer({
    'GET /api/auth/me': () => json(200, makeUser()),
    'GET /api/patients': list,
    'POST /api/screenings': () => json(201, makeScreening({ id: 's-9' })),
  });
}

describe('Patients page', () => {
  it('shows "Loading patients..." while the list loads', async () => {
    const answer = deferred<Response>();
    server(() => answer.promise);
    renderApp('/patients');
    expect(await screen.findByText('Loading patients...')).toBeInTheDocument();
    answer.resolve(json(200, []));
    expect(await screen.findByText('No patients yet. Add your first patient!')).toBeInTheDocument();
  });

  it('shows the error with its message', async () => {
    server(() => Promise.reject(new TypeError('Failed to fetch')));
    renderApp('/patients');
    expect(await screen.findByRole('alert', {}, { timeout: 4000 })).toHaveTextContent(
      'Error loading patients: Network error. Please check your internet connection.',
    );
  });

  it('lists the patients with the seven columns and the last result', async () => {
    server(() => json(200, [MARIA, JEAN]));
    renderApp('/patients');
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Patient', 'Date of Birth', 'Gender', 'Phone', 'Last Visit', 'Last Result', 'Status', 'Actions']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const first = within(rows[0] as HTMLElement);
    expect(first.getByText('María López')).toBeInTheDocument();
    expect(first.getByText('ID: p-1')).toBeInTheDocument();
    expect(first.getByText('Apr 2, 1980')).toBeInTheDocument();
    expect(first.getByText('Female')).toBeInTheDocument();
    expect(first.getByText('+34 600 000 000')).toBeInTheDocument();
    expect(first.getByText('Active')).toHaveClass('badge--success');
    expect(first.getByRole('link', { name: /View Details/i })).toHaveAttribute('href', '/patients/p-1');
    const second = within(rows[1] as HTMLElement);
    expect(second.getByText('Dec 31, 1955')).toBeInTheDocument();
    expect(second.getByText('Inactive')).toHaveClass('badge--muted');
    // The last result: modality and finding linked to the analysis, its risk badge and its date.
    expect(first.getByRole('link', { name: 'ECG: Atrial fibrillation suspected' })).toHaveAttribute(
      'href',
      '/analyses/a-7',
    );
    expect(first.getByText('High Risk')).toHaveClass('badge--danger');
    expect(first.getByText('Nov 20, 2026')).toBeInTheDocument();
    expect(second.getByText('No result yet')).toBeInTheDocument();
  });

  it('searches on the server after typing stops, and says when nothing matches', async () => {
    const fake = server((request) => {
      const q = new URL(request.url).searchParams.get('q');
      return json(200, q ? [] : [MARIA]);
    });
    renderApp('/patients');
    expect(await screen.findByText('María López')).toBeInTheDocument();
    await userEvent.setup().type(screen.getByPlaceholderText('Search by name, phone, or email...'), 'zzz');
    expect(await screen.findByText('No patients found matching your search')).toBeInTheDocument();
    const queries = requestsTo(fake, 'GET', '/api/patients').map((request) =>
      new URL(request.url).searchParams.get('q'),
    );
    expect(queries).toEqual([null, 'zzz']);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/patients?q=zzz'));
  });

  it('Run Diagnostics starts a screening and opens its clinical data step', async () => {
    const fake = server(() => json(200, [MARIA]));
    renderApp('/patients');
    await userEvent.setup().click(await screen.findByRole('button', { name: /Run Diagnostics/i }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/clinical-data?screening=s-9'));
    const [request] = requestsTo(fake, 'POST', '/api/screenings');
    expect(await request?.json()).toEqual({ patient_id: 'p-1' });
  });

  it('tells a user-role account that patient records are for professionals', async () => {
    const fake = mockServer({ 'GET /api/auth/me': () => json(200, makeUser({ role: 'user' })) });
    renderApp('/patients');
    expect(await screen.findByText('Only healthcare professionals can access patient records.')).toBeInTheDocument();
    expect(requestsTo(fake, 'GET', '/api/patients')).toHaveLength(0);
  });
});
