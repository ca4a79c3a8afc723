import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { CLINICAL_VALUES, createAccount, createPatientWithScreening, uniqueEmail, uniqueSurname } from './helpers';
import { ecgCsv } from './signals';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

/** Asks for a verification e-mail and follows its link from the server's outbox. */
async function verifyEmail(request: APIRequestContext, email: string): Promise<void> {
  const asked = await request.post('/api/auth/verify-email/request');
  expect(asked.status(), await asked.text()).toBeLessThan(300);
  const outbox = join(process.env.E2E_DATA_DIR ?? '', 'outbox');
  const messages = readdirSync(outbox)
    .map((name) => readFileSync(join(outbox, name), 'utf8'))
    // Quoted-printable soft line breaks and '=' escapes.
    .map((text) => text.replace(/=\r?\n/g, '').replace(/=3D/g, '='))
    .filter((text) => text.includes(email) && text.includes('verify-email?token='));
  const token = /verify-email\?token=([0-9a-f]+\.[A-Za-z0-9_-]+)/.exec(messages.at(-1) ?? '')?.[1];
  expect(token, 'a verification link in the outbox').toBeTruthy();
  const verified = await request.post('/api/auth/verify-email', { data: { token } });
  expect(verified.status(), await verified.text()).toBe(204);
}

test('a doctor shares a reviewed result; the invited patient sees it and nothing else', async ({
  browser,
  baseURL,
}) => {
  mkdirSync(OUT, { recursive: true });
  const doctor = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  await createAccount(doctor.request, { name: 'Irene Castro', email: uniqueEmail('share-doctor') });
  const lastName = uniqueSurname();
  const { patientId } = await createPatientWithScreening(doctor.request, { firstName: 'Lucía', lastName });
  const ids: string[] = [];
  for (const seconds of [30, 20]) {
    const response = await doctor.request.post('/api/predict/ecg/upload', {
      multipart: {
        file: { name: `ecg-${seconds}.csv`, mimeType: 'text/csv', buffer: ecgCsv(seconds) },
        patient_id: patientId,
      },
    });
    expect(response.status(), await response.text()).toBe(200);
    ids.push(((await response.json()) as { analysis_id: string }).analysis_id);
  }
  const review = await doctor.request.post(`/api/analyses/${ids[0]}/reviews`, { data: { agreement: 'agree' } });
  expect(review.status(), await review.text()).toBe(201);

  // The doctor invites the patient from the record.
  const patientEmail = uniqueEmail('share-patient');
  const page = await doctor.newPage();
  await page.goto(`/patients/${patientId}`);
  const card = page.getByRole('region', { name: 'Share with patient' });
  await card.getByRole('textbox', { name: "Patient's email address" }).fill(patientEmail);
  await card.getByRole('button', { name: 'Invite patient' }).click();
  await expect(card.getByText('Invited', { exact: true })).toBeVisible();
  await expect(card.getByText(`Invitation sent to ${patientEmail}`, { exact: false })).toBeVisible();
  await card.screenshot({ path: join(OUT, 'light-share-card.png') });

  // The address was told by e-mail (the outbox here, without SMTP).
  const outbox = join(process.env.E2E_DATA_DIR ?? '', 'outbox');
  const invitation = readdirSync(outbox)
    .map((name) => readFileSync(join(outbox, name), 'utf8'))
    .find((text) => text.includes(patientEmail) && text.includes('Results shared with you on Cardio'));
  expect(invitation).toContain('/login');

  // The patient signs up with that address, verifies it and accepts.
  const patient = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  await createAccount(patient.request, { name: `Lucía ${lastName}`, email: patientEmail, role: 'user' });
  await verifyEmail(patient.request, patientEmail);
  const home = await patient.newPage();
  await home.goto('/home');
  await expect(home.getByText('No shared results yet')).toBeVisible();
  await expect(home.getByText(/Dr\. Irene Castro invites you to see the results of Lucía's record/)).toBeVisible();
  await home.getByRole('button', { name: 'Accept' }).click();
  const list = home.getByRole('list', { name: 'Shared results' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByText(/Reviewed by your doctor on/)).toBeVisible();
  await expect(list.getByText('Doctor: Irene Castro')).toBeVisible();
  const href = await list.getByRole('link', { name: 'Download report' }).getAttribute('href');
  expect(href).toBe(`/api/shared/analyses/${ids[0]}/report.pdf`);
  const pdf = await patient.request.get(href ?? '');
  expect(pdf.status()).toBe(200);
  expect((await pdf.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  // The unreviewed result, the doctor's pages and the record itself stay closed.
  expect((await patient.request.get(`/api/shared/analyses/${ids[1]}/report.pdf`)).status()).toBe(404);
  expect((await patient.request.get(`/api/patients/${patientId}`)).status()).toBe(403);
  expect((await patient.request.get('/api/reports/summary')).status()).toBe(403);
  await home.screenshot({ path: join(OUT, 'light-patient-home.png'), fullPage: true });
  await home.emulateMedia({ colorScheme: 'dark' });
  await home.waitForTimeout(400);
  await home.screenshot({ path: join(OUT, 'dark-patient-home.png'), fullPage: true });
  // Test Results shows the patient the same shared result.
  await home.goto('/test-results');
  await expect(home.getByRole('list', { name: 'Shared results' }).getByRole('listitem')).toHaveCount(1);
  await expect(home.getByText('No test results found')).toHaveCount(0);
  await home.screenshot({ path: join(OUT, 'dark-patient-test-results.png'), fullPage: true });
  await home.emulateMedia({ colorScheme: 'light' });
  await home.goto('/home');

  // The doctor stops sharing: the patient's list empties.
  await page.reload();
  await card.getByRole('button', { name: 'Stop sharing' }).click();
  await expect(card.getByRole('button', { name: 'Invite patient' })).toBeVisible();
  await home.reload();
  await expect(home.getByText('No shared results yet')).toBeVisible();
  await doctor.close();
  await patient.close();
});

test('a screening sign-off settles its results: pending reviews drop and the patient receives them', async ({
  browser,
  baseURL,
}) => {
  mkdirSync(OUT, { recursive: true });
  const doctor = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  await createAccount(doctor.request, { name: 'Irene Castro', email: uniqueEmail('settle-doctor') });
  const lastName = uniqueSurname();
  const { patientId, screeningId } = await createPatientWithScreening(doctor.request, { firstName: 'Lucía', lastName });
  const ecg = await doctor.request.post('/api/predict/ecg/upload', {
    multipart: {
      file: { name: 'ecg.csv', mimeType: 'text/csv', buffer: ecgCsv(30) },
      screening_id: screeningId,
    },
  });
  expect(ecg.status(), await ecg.text()).toBe(200);
  const clinical = await doctor.request.post('/api/predict/clinical', {
    data: { ...CLINICAL_VALUES, screening_id: screeningId },
  });
  expect(clinical.status(), await clinical.text()).toBe(200);
  const combined = await doctor.request.post(`/api/screenings/${screeningId}/combine`);
  expect(combined.status(), await combined.text()).toBe(200);

  // The patient's account holds an accepted share of reviewed results only, and sees nothing yet.
  const patientEmail = uniqueEmail('settle-patient');
  const share = await doctor.request.post(`/api/patients/${patientId}/share`, { data: { email: patientEmail } });
  expect(share.status(), await share.text()).toBe(200);
  const patient = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  await createAccount(patient.request, { name: `Lucía ${lastName}`, email: patientEmail, role: 'user' });
  await verifyEmail(patient.request, patientEmail);
  const [invitation] = (await (await patient.request.get('/api/shared/invitations')).json()) as { id: string }[];
  const accepted = await patient.request.post(`/api/shared/invitations/${invitation?.id}/accept`);
  expect(accepted.status(), await accepted.text()).toBe(204);
  expect(await (await patient.request.get('/api/shared/results')).json()).toEqual([]);

  // ECG (the clinical result is not counted) and the completed screening await review.
  const page = await doctor.newPage();
  await page.goto('/home');
  const pending = page.locator('.stat-card', { hasText: 'Pending Reviews' });
  await expect(pending.locator('.stat-card__value')).toHaveText('2');

  await page.goto(`/sensor-ecg?screening=${screeningId}`);
  const panel = page.locator('section.review');
  const settle = panel.getByRole('group', { name: "Sign off this screening's results with it" });
  await expect(settle.getByRole('checkbox')).toHaveCount(2);
  await expect(settle.getByRole('checkbox', { name: /^Clinical: / })).toBeChecked();
  await expect(settle.getByRole('checkbox', { name: /^ECG: / })).toBeChecked();
  await panel.getByRole('radio', { name: 'Agree', exact: true }).check();
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(OUT, 'light-screening-sign-off.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(OUT, 'dark-screening-sign-off.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
  await panel.getByRole('button', { name: 'Sign off' }).click();
  await expect(panel.locator('.review__current')).toContainText(": agreed with the model's finding");
  // Settled: nothing left to offer.
  await expect(settle).toHaveCount(0);

  await page.goto('/home');
  await expect(pending.locator('.stat-card__value')).toHaveText('0');

  // Sharing follows the sign-off: the patient now has both results.
  const home = await patient.newPage();
  await home.goto('/test-results');
  const list = home.getByRole('list', { name: 'Shared results' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByText(/Reviewed by your doctor on/)).toHaveCount(2);
  await doctor.close();
  await patient.close();
});
