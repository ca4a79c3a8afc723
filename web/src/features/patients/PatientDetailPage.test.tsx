import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Patient, PatientPatch } from '../../api/client';
import { makeClinicalRecord, makePatient, makeScreening } from '../../test/fixtures';
import { json, makeUser, mockServer, renderApp, requestsTo, type Handler } from '../../test/utils';

function server(handlers: Record<string, Handler> = {}) {
  let patient: Patient = makePatient({ email: 'maria@example.com', allergies: 'Penicillin' });
  return mockServer({
    'GET /api/auth/me': () => json(200, makeUser()),
    'GET /api/patients/p-1': () => json(200, patient),
    'PATCH /api/patients/p-1': async (request) => {
      const patch = (await request.clone().json()) as PatientPatch;
      const next: Patient = { ...patient };
      for (const [key, value] of Object.entries(patch)) {
        if (value === null) continue;
        (next as unknown as Record<string, unknown>)[key] = value === '' ? undefined : value;
      }
      patient = next;
      return json(200, patient);
    },
    'GET /api/patients/p-1/clinical': () => {
      const withMore = makeClinicalRecord({ id: 'c-2' });
      withMore.parameters = { ...withMore.parameters, sex: 'female', resting_ecg: 1, st_depression: 1.4 };
      return json(200, [withMore, makeClinicalRecord()]);
    },
    'GET /api/patients/p-1/screenings': () => json(200, [makeScreening({ clinical: makeClinicalRecord() })]),
    'GET /api/patients/missing': () => json(404, { detail: 'Patient not found.' }),
    'GET /api/analyses': () => json(200, []),
    'GET /api/patients/p-1/share': () => json(200, { current: null }),
    ...handlers,
  });
}

describe('Patient detail page', () => {
  it('shows the demographics, filled fields, clinical history with labels and the screenings', async () => {
    server();
    renderApp('/patients/p-1');
    expect(await screen.findByRole('heading', { name: 'María López', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('maria@example.com')).toBeInTheDocument();
    expect(screen.getByText('Penicillin')).toBeInTheDocument();
    expect(screen.getByText('No address recorded.')).toBeInTheDocument();
    expect(screen.getByText('Active')).toHaveClass('badge--success');

    const history = await screen.findByRole('table', { name: 'Clinical parameters, newest first' });
    const cells = (row: number) =>
      within(within(history).getAllByRole('row')[row] as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cells(2).slice(1)).toEqual(['46', 'Atypical Angina', '210', '95', 'No', '2', 'Reversible Defect', '—']);
    expect(cells(1)[8]).toBe(
      'Sex: Female; Resting ECG: ST-T Wave Abnormality; ST Depression, Exercise vs Rest (mm): 1.4',
    );

    const screenings = await screen.findByRole('table', { name: 'Screenings, newest first' });
    expect(within(screenings).getByText('In progress')).toBeInTheDocument();
    expect(within(screenings).getByText('Not combined yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Export FHIR' })).toHaveAttribute('href', '/api/patients/p-1/fhir');
    expect(within(screenings).getByRole('link', { name: 'Continue' })).toHaveAttribute(
      'href',
      '/clinical-data?screening=s-1',
    );
  });

  it("shows a combined screening's overall risk and links to its result", async () => {
    server({
      'GET /api/patients/p-1/screenings': () =>
        json(200, [
          makeScreening({
            id: 's-2',
            status: 'completed',
            combined: {
              screening_id: 's-2',
              combined_at: '2026-11-21T10:30:00Z',
              driver: 'ecg',
              modalities: [],
              recommendations: [],
              risk_level: 'high',
              risk_score: 0.812,
              rule: 'highest risk',
              based_on: 3,
              out_of: 4,
            },
          }),
        ]),
    });
    renderApp('/patients/p-1');
    const screenings = await screen.findByRole('table', { name: 'Screenings, newest first' });
    expect(within(screenings).getByText(/^Overall risk 81\.2% \(from ECG\)/)).toHaveClass('badge--danger');
    expect(within(screenings).getByText(/^Overall risk 81\.2% \(from ECG\)/)).toHaveTextContent(
      'Overall risk 81.2% (from ECG) · based on 3 of 4',
    );
    expect(within(screenings).getByRole('link', { name: 'View result' })).toHaveAttribute(
      'href',
      '/sensor-ecg?screening=s-2',
    );
    expect(within(screenings).queryByRole('link', { name: 'Continue' })).not.toBeInTheDocument();
  });

  it('edits the patient inline, validates, and saves with PATCH', async () => {
    const fake = server();
    renderApp('/patients/p-1');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const phone = screen.getByLabelText('Phone Number');
    expect(phone).toHaveValue('+34 600 000 000');
    await user.clear(phone);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Phone is required.')).toBeInTheDocument();
    expect(requestsTo(fake, 'PATCH', '/api/patients/p-1')).toHaveLength(0);

    await user.type(phone, '555 1234');
    await user.clear(screen.getByLabelText('Allergies'));
    await user.type(screen.getByLabelText('City'), 'Madrid');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Changes saved.')).toBeInTheDocument();
    const [request] = requestsTo(fake, 'PATCH', '/api/patients/p-1');
    expect(await request?.json()).toMatchObject({ phone: '555 1234', allergies: '', city: 'Madrid', status: null });
    expect(screen.getByText('555 1234')).toBeInTheDocument();
    expect(screen.getByText('Madrid')).toBeInTheDocument();
    expect(screen.queryByText('Penicillin')).not.toBeInTheDocument();
  });

  it("shows the server's detail when an edit is refused", async () => {
    server({ 'PATCH /api/patients/p-1': () => json(422, { detail: 'Invalid email address.' }) });
    renderApp('/patients/p-1');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email address.');
    expect(screen.getByLabelText('Email')).toHaveValue('maria@example.com');
  });

  it("lists the patient's analyses and opens a full result", async () => {
    const fake = server({
      'GET /api/analyses': () =>
        json(200, [
          {
            id: 'a-1',
            modality: 'ecg',
            patientId: 'p-1',
            patientName: 'María López',
            screeningId: null,
            fileName: 'holter.csv',
            fileSha256: 'ab'.repeat(32),
            fileSize: 1234,
            files: [{ name: 'holter.csv', sha256: 'ab'.repeat(32), size: 1234 }],
            modelId: 'ecg-rhythm-gbdt',
            modelVersion: '1.0.0',
            createdAt: '2026-11-20T10:30:00.000Z',
            result: {
              analysis_id: 'a-1',
              model: 'ECG',
              label: 'af',
              prediction: 'Atrial fibrillation suspected',
              confidence: 0.91,
              risk_score: 0.934,
              recommendations: ['Arrange a 12-lead ECG within days.'],
              details: { heart_rate_bpm: 118 },
            },
          },
        ]),
    });
    renderApp('/patients/p-1');
    const table = await screen.findByRole('table', { name: "The patient's analyses, newest first" });
    const row = within(table).getAllByRole('row')[1] as HTMLElement;
    expect(row).toHaveTextContent('ECG');
    expect(row).toHaveTextContent('Atrial fibrillation suspected');
    expect(row).toHaveTextContent('93.4%');
    expect(row).toHaveTextContent('holter.csv');
    const [request] = requestsTo(fake, 'GET', '/api/analyses');
    expect(new URL(request?.url ?? '').searchParams.get('patient_id')).toBe('p-1');
    expect(within(row).getByRole('link', { name: 'View result' })).toHaveAttribute('href', '/analyses/a-1');
  });

  it('toggles the status', async () => {
    const fake = server();
    renderApp('/patients/p-1');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Mark as Inactive' }));
    expect(await screen.findByRole('button', { name: 'Mark as Active' })).toBeInTheDocument();
    expect(screen.getByText('Inactive')).toHaveClass('badge--muted');
    const [request] = requestsTo(fake, 'PATCH', '/api/patients/p-1');
    expect(await request?.json()).toMatchObject({ status: 'inactive', phone: null });
  });

  it('Run Diagnostics starts a screening', async () => {
    server({ 'POST /api/screenings': () => json(201, makeScreening({ id: 's-7' })) });
    renderApp('/patients/p-1');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Run Diagnostics' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/clinical-data?screening=s-7'));
  });

  it('says "Patient not found." with a link back for an unknown (or another doctor\'s) patient', async () => {
    server();
    renderApp('/patients/missing');
    expect(await screen.findByRole('heading', { name: 'Patient not found.', level: 1 })).toBeInTheDocument();
    // Said once, not "Patient not found.Patient not found."
    expect(screen.getAllByText('Patient not found.')).toHaveLength(1);
    expect(screen.getByText('This patient does not exist or is not one of your patients.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Patients' })).toHaveAttribute('href', '/patients');
  });
});
