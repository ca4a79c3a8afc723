import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeClinicalRecord, makeScreening } from '../../test/fixtures';
import { json, makeUser, mockServer, renderApp, requestsTo, type Handler } from '../../test/utils';

function server(handlers: Record<string, Handler> = {}) {
  return mockServer({
    'GET /api/auth/me': () => json(200, makeUser()),
    'GET /api/screenings/s-1': () => json(200, makeScreening()),
    'POST /api/patients/p-1/clinical': () => json(201, makeClinicalRecord()),
    ...handlers,
  });
}

async function fillClinical(user: ReturnType<typeof userEvent.setup>) {
  await user.clear(screen.getByLabelText('Age'));
  await user.type(screen.getByLabelText('Age'), '46');
  await user.selectOptions(screen.getByLabelText('Chest Pain Type'), 'Atypical Angina');
  await user.type(screen.getByLabelText('Cholesterol (mg/dl)'), '210');
  await user.type(screen.getByLabelText('Fasting Blood Sugar (mg/dl)'), '95');
  await user.selectOptions(screen.getByLabelText('Exercise Induced Angina'), 'No');
  await user.selectOptions(screen.getByLabelText('Vessels Colored by Fluoroscopy'), '2');
  await user.selectOptions(screen.getByLabelText('Thalassemia'), 'Reversible Defect');
}

describe('Clinical data page', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([['/clinical-data'], ['/clinical-data?screening=unknown']])(
    'shows the missing-session state for %s',
    async (path) => {
      server({ 'GET /api/screenings/unknown': () => json(404, { detail: 'Screening not found.' }) });
      renderApp(path);
      expect(await screen.findByText('No Patient Data Found')).toBeInTheDocument();
      expect(screen.getByText('Please complete patient intake first.')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Go to Intake' })).toHaveAttribute('href', '/intake');
    },
  );

  it("shows the patient, the four steps and the seven inputs with the spec's labels", async () => {
    server();
    renderApp('/clinical-data?screening=s-1');
    expect(await screen.findByText('María López')).toBeInTheDocument();
    expect(screen.getByText('Apr 2, 1980')).toBeInTheDocument();
    expect(screen.getByText('Female', { selector: ':not(option)' })).toBeInTheDocument();
    const steps = screen.getByRole('navigation', { name: 'Screening steps' });
    expect(steps).toHaveTextContent(/Clinical Data.*PCG.*PPG.*ECG/);
    const age = screen.getByLabelText('Age');
    expect(age).toHaveAttribute('min', '0');
    expect(age).toHaveAttribute('max', '120');
    const options = (label: string) =>
      [...(screen.getByLabelText(label) as HTMLSelectElement).options].map((option) => option.textContent);
    expect(options('Chest Pain Type')).toEqual([
      'Select...',
      'Typical Angina',
      'Atypical Angina',
      'Non-anginal Pain',
      'Asymptomatic',
    ]);
    expect(options('Exercise Induced Angina')).toEqual(['Select...', 'No', 'Yes']);
    expect(options('Thalassemia')).toEqual(['Select...', 'Normal', 'Fixed Defect', 'Reversible Defect']);
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/intake');
  });

  it('requires every field and checks the ranges before sending', async () => {
    const fake = server();
    renderApp('/clinical-data?screening=s-1');
    const user = userEvent.setup();
    await user.clear(await screen.findByLabelText('Age'));
    await user.type(screen.getByLabelText('Age'), '130');
    await user.type(screen.getByLabelText('Cholesterol (mg/dl)'), '-5');
    await user.click(screen.getByRole('button', { name: 'Continue to PCG Sensor' }));
    for (const text of [
      'Age must be a whole number from 0 to 120.',
      'Chest pain type is required.',
      'Cholesterol must be 0 mg/dl or more.',
      'Fasting blood sugar is required.',
      'Exercise-induced angina is required.',
      'Vessels colored by fluoroscopy is required.',
      'Thalassemia is required.',
    ]) {
      expect(screen.getByText(text)).toBeInTheDocument();
    }
    expect(screen.getByLabelText('Age')).toHaveFocus();
    expect(requestsTo(fake, 'POST', '/api/patients/p-1/clinical')).toHaveLength(0);
  });

  it('saves to the server with the screening id, then goes to the PCG step after 1.5 s', async () => {
    const fake = server();
    renderApp('/clinical-data?screening=s-1');
    const user = userEvent.setup();
    await screen.findByText('María López');
    await fillClinical(user);
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    await user.click(screen.getByRole('button', { name: 'Continue to PCG Sensor' }));
    expect(await screen.findByText('Clinical Data Saved!')).toBeInTheDocument();
    expect(screen.getByText('Redirecting to PCG sensor...')).toBeInTheDocument();
    const [request] = requestsTo(fake, 'POST', '/api/patients/p-1/clinical');
    expect(await request?.json()).toEqual({
      age: 46,
      chest_pain_type: 1,
      cholesterol: 210,
      fasting_blood_sugar: 95,
      exercise_induced_angina: 0,
      vessels_colored_by_flourosopy: 2,
      thalassemia: 2,
      // The patient record's sex; the optional values not entered.
      sex: 'female',
      resting_blood_pressure: null,
      resting_ecg: null,
      max_heart_rate: null,
      st_depression: null,
      st_slope: null,
      screening_id: 's-1',
    });
    act(() => vi.advanceTimersByTime(1300));
    expect(screen.getByTestId('location')).toHaveTextContent('/clinical-data?screening=s-1');
    act(() => vi.advanceTimersByTime(300));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/sensor-pcg?screening=s-1'));
  });

  it("shows the server's detail and keeps the values", async () => {
    server({ 'POST /api/patients/p-1/clinical': () => json(422, { detail: 'Cholesterol must be 0 mg/dl or more.' }) });
    renderApp('/clinical-data?screening=s-1');
    const user = userEvent.setup();
    await screen.findByText('María López');
    await fillClinical(user);
    await user.click(screen.getByRole('button', { name: 'Continue to PCG Sensor' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Cholesterol must be 0 mg/dl or more.');
    expect(screen.getByLabelText('Age')).toHaveValue(46);
  });

  it('fills in the age from the date of birth and the sex from the patient record', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 3, 1));
    server();
    renderApp('/clinical-data?screening=s-1');
    // Born 1980-04-02: 45 the day before the birthday.
    expect(await screen.findByLabelText('Age')).toHaveValue(45);
    expect(screen.getByText('Age and sex are filled in from the patient record.')).toBeInTheDocument();
    expect(screen.getByLabelText('Sex')).toHaveValue('female');
    expect(screen.getByText('More clinical values (optional)').closest('details')).not.toHaveAttribute('open');
  });

  it('sends the optional values entered and checks their ranges', async () => {
    const fake = server();
    renderApp('/clinical-data?screening=s-1');
    const user = userEvent.setup();
    await screen.findByText('María López');
    await fillClinical(user);
    await user.click(screen.getByText('More clinical values (optional)'));
    expect(screen.getByLabelText('Sex')).not.toHaveAttribute('aria-required', 'true');
    await user.selectOptions(screen.getByLabelText('Sex'), 'Male');
    await user.type(screen.getByLabelText('Resting Blood Pressure (mm Hg)'), '300');
    await user.selectOptions(screen.getByLabelText('Resting ECG'), 'Left Ventricular Hypertrophy');
    await user.type(screen.getByLabelText('Maximum Heart Rate Achieved (bpm)'), '150');
    await user.type(screen.getByLabelText('ST Depression, Exercise vs Rest (mm)'), '-0.5');
    await user.selectOptions(screen.getByLabelText('Slope of Peak Exercise ST Segment'), 'Flat');
    await user.click(screen.getByRole('button', { name: 'Continue to PCG Sensor' }));
    expect(screen.getByText('Resting blood pressure must be from 60 to 260 mm Hg.')).toBeInTheDocument();
    expect(screen.getByLabelText('Resting Blood Pressure (mm Hg)')).toHaveFocus();
    expect(requestsTo(fake, 'POST', '/api/patients/p-1/clinical')).toHaveLength(0);

    await user.clear(screen.getByLabelText('Resting Blood Pressure (mm Hg)'));
    await user.type(screen.getByLabelText('Resting Blood Pressure (mm Hg)'), '132');
    await user.click(screen.getByRole('button', { name: 'Continue to PCG Sensor' }));
    expect(await screen.findByText('Clinical Data Saved!')).toBeInTheDocument();
    const [request] = requestsTo(fake, 'POST', '/api/patients/p-1/clinical');
    expect(await request?.json()).toMatchObject({
      sex: 'male',
      resting_blood_pressure: 132,
      resting_ecg: 2,
      max_heart_rate: 150,
      st_depression: -0.5,
      st_slope: 1,
    });
  });

  it('is prefilled when the screening already has clinical data', async () => {
    server({ 'GET /api/screenings/s-1': () => json(200, makeScreening({ clinical: makeClinicalRecord() })) });
    renderApp('/clinical-data?screening=s-1');
    expect(await screen.findByLabelText('Age')).toHaveValue(46);
    expect(screen.getByLabelText('Chest Pain Type')).toHaveValue('1');
    expect(screen.getByLabelText('Thalassemia')).toHaveValue('2');
    expect(screen.queryByText('Age and sex are filled in from the patient record.')).not.toBeInTheDocument();
  });

  it('opens the optional values when the saved entry has some', async () => {
    const saved = makeClinicalRecord();
    saved.parameters = { ...saved.parameters, sex: 'male', st_depression: 1.5, st_slope: 2 };
    server({ 'GET /api/screenings/s-1': () => json(200, makeScreening({ clinical: saved })) });
    renderApp('/clinical-data?screening=s-1');
    expect(await screen.findByLabelText('ST Depression, Exercise vs Rest (mm)')).toHaveValue(1.5);
    expect(screen.getByText('More clinical values (optional)').closest('details')).toHaveAttribute('open');
    expect(screen.getByLabelText('Sex')).toHaveValue('male');
    expect(screen.getByLabelText('Slope of Peak Exercise ST Segment')).toHaveValue('2');
    expect(screen.getByLabelText('Resting ECG')).toHaveValue('');
  });
});
