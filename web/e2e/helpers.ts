import type { APIRequestContext } from '@playwright/test';

const RUN = Date.now().toString(36);
let counter = 0;

/** An email address no other test (or earlier run) has used. */
export function uniqueEmail(tag: string): string {
  counter += 1;
  return `e2e-${tag}-${RUN}-${counter}@example.com`;
}

export const PASSWORD = 'correct-horse-1';

/**
 * Creates an account through the API (the request context keeps the session cookie). Answers whether
 * it is an administrator: only the first account of an installation is (e2e/globalSetup.ts makes it).
 */
export async function createAccount(
  request: APIRequestContext,
  account: { name: string; email: string; role?: 'doctor' | 'user'; password?: string },
): Promise<{ isAdmin: boolean }> {
  const response = await request.post('/api/auth/signup', {
    data: {
      full_name: account.name,
      email: account.email,
      password: account.password ?? PASSWORD,
      role: account.role ?? 'doctor',
    },
  });
  if (response.status() !== 201) {
    throw new Error(`signup failed: ${response.status()} ${await response.text()}`);
  }
  const user = (await response.json()) as { isAdmin?: unknown };
  return { isAdmin: user.isAdmin === true };
}

/** Signs in through the API (the request context keeps the session cookie). */
export async function signIn(request: APIRequestContext, email: string, password = PASSWORD): Promise<void> {
  const response = await request.post('/api/auth/login', { data: { email, password } });
  if (response.status() !== 200) {
    throw new Error(`sign-in failed: ${response.status()} ${await response.text()}`);
  }
}

/** Where e2e/globalSetup.ts leaves the administrator's e-mail address for the specs. */
export const ADMIN_EMAIL_VARIABLE = 'E2E_ADMIN_EMAIL';

/**
 * The installation's administrator (a doctor account, password `PASSWORD`): the first account of the
 * fresh server, signed up by e2e/globalSetup.ts before any spec. Every account a spec creates is not one.
 */
export function administratorEmail(): string {
  const email = process.env[ADMIN_EMAIL_VARIABLE];
  if (!email) {
    throw new Error(
      'no administrator account: the server already had accounts when the tests started; run them with `npm run e2e` (a fresh server)',
    );
  }
  return email;
}

/** A name part no other run has used (letters only, so it reads as a surname). */
export function uniqueSurname(): string {
  counter += 1;
  const letters = `${RUN}${counter}`.replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)] ?? 'x');
  return `Test${letters.charAt(0).toUpperCase()}${letters.slice(1)}`;
}

/** A phone number no other test of this run has used. */
export function uniquePhone(): string {
  counter += 1;
  return `+1 555 ${String(Date.now() % 10_000_000).padStart(7, '0')}${counter}`;
}

/** Creates a patient, a screening and its clinical data through the API (for screenshots). */
/** The seven clinical values every e2e screening is given. */
export const CLINICAL_VALUES = {
  age: 47,
  chest_pain_type: 1,
  cholesterol: 215,
  fasting_blood_sugar: 98,
  exercise_induced_angina: 0,
  vessels_colored_by_flourosopy: 1,
  thalassemia: 2,
} as const;

export async function createPatientWithScreening(
  request: APIRequestContext,
  patient: { firstName: string; lastName: string; phone?: string; gender?: 'male' | 'female' | 'other' },
): Promise<{ patientId: string; screeningId: string }> {
  const created = await request.post('/api/patients', {
    data: {
      firstName: patient.firstName,
      lastName: patient.lastName,
      dateOfBirth: '1978-06-15',
      gender: patient.gender ?? 'female',
      phone: patient.phone ?? '+34 600 123 456',
      email: 'maria.lopez@example.com',
      city: 'Sevilla',
      allergies: 'Penicillin',
    },
  });
  if (created.status() !== 201) throw new Error(`patient: ${created.status()} ${await created.text()}`);
  const { id: patientId } = (await created.json()) as { id: string };
  const screening = await request.post('/api/screenings', { data: { patient_id: patientId } });
  if (screening.status() !== 201) throw new Error(`screening: ${screening.status()} ${await screening.text()}`);
  const { id: screeningId } = (await screening.json()) as { id: string };
  const clinical = await request.post(`/api/patients/${patientId}/clinical`, {
    data: { ...CLINICAL_VALUES, screening_id: screeningId },
  });
  if (clinical.status() !== 201) throw new Error(`clinical: ${clinical.status()} ${await clinical.text()}`);
  return { patientId, screeningId };
}
