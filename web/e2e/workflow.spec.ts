import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { createAccount, createPatientWithScreening, uniqueEmail } from './helpers';
import { ecgWfdb, heartSoundWav, pulseCsv } from './signals';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

test('the screening workflow: heart sounds, pulse and ECG uploaded, combined result saved and listed', async ({
  browser,
  baseURL,
}) => {
  mkdirSync(OUT, { recursive: true });
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await createAccount(context.request, { name: 'Paul Wood', email: uniqueEmail('workflow') });
  const { patientId, screeningId } = await createPatientWithScreening(context.request, {
    firstName: 'Elena',
    lastName: 'Marsh',
  });

  await page.goto(`/sensor-pcg?screening=${screeningId}`);
  await expect(page.locator('.upload-step__status dd')).toHaveText('Ready');
  await page.locator('input[type=file]').setInputFiles({
    name: 'heart.wav',
    mimeType: 'audio/wav',
    buffer: heartSoundWav(12, 4000),
  });
  await expect(page.locator('.upload-step__status dd')).toHaveText('Completed');
  await expect(page.getByText(/^Analysed: /)).toBeVisible();
  await page.screenshot({ path: join(OUT, 'light-workflow-pcg.png'), fullPage: true });
  await page.getByRole('link', { name: 'Continue to PPG' }).click();

  await expect(page).toHaveURL(new RegExp(`/sensor-ppg\\?screening=${screeningId}$`));
  // A file set before the screening's patient is shown was lost in 3 of 4 runs: wait for the patient.
  await expect(page.getByRole('region', { name: 'Patient' })).toContainText('Elena Marsh');
  await expect(page.locator('.upload-step__status dd')).toHaveText('Ready');
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'pulse.csv', mimeType: 'text/csv', buffer: pulseCsv(20) });
  await expect(page.getByText('Analysed: Regular pulse rhythm')).toBeVisible();
  await page.getByRole('link', { name: 'Continue to ECG' }).click();

  await expect(page).toHaveURL(new RegExp(`/sensor-ecg\\?screening=${screeningId}$`));
  await expect(page.getByRole('region', { name: 'Patient' })).toContainText('Elena Marsh');
  // A WFDB record: the header alone is kept, with the missing signal file named; then its signal file.
  const record = ecgWfdb('rec7', 30);
  const ecgInput = page.locator('input[type=file]');
  await ecgInput.setInputFiles({ name: 'rec7.hea', mimeType: 'application/octet-stream', buffer: record.header });
  await expect(page.getByRole('alert')).toHaveText(
    'rec7.hea names the signal file rec7.dat: choose it too (both files together, or one after the other).',
  );
  await ecgInput.setInputFiles({ name: 'rec7.dat', mimeType: 'application/octet-stream', buffer: record.signal });
  await expect(page.getByText(/^Selected: rec7\.hea, rec7\.dat \(/)).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.screenshot({ path: join(OUT, 'light-workflow-ecg-wfdb.png'), fullPage: true });
  await page.getByRole('button', { name: 'Analyze ECG Data' }).click();
  const combined = page.getByRole('region', { name: 'Combined screening result' });
  await expect(combined).toBeVisible();
  await expect(combined.getByRole('row')).toHaveCount(5);
  await expect(combined.getByRole('row').nth(1)).toContainText('ClinicalPerformed');
  await expect(combined.getByRole('row').nth(3)).toContainText('PPGPerformedRegular pulse rhythm');
  await page.screenshot({ path: join(OUT, 'light-workflow-combined.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  // Let the colour transitions finish before the picture.
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(OUT, 'dark-workflow-combined.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });

  // Saved: the screening is completed, and the results are on Test Results and the patient page.
  const screening = await (await context.request.get(`/api/screenings/${screeningId}`)).json();
  expect(screening.status).toBe('completed');
  expect(screening.combined.modalities).toHaveLength(4);
  await page.goto('/test-results');
  await expect(page.locator('.test-card')).toHaveCount(3);
  await expect(page.locator('.test-card').first()).toContainText('Elena Marsh');
  await page.screenshot({ path: join(OUT, 'light-test-results.png'), fullPage: true });
  await page.goto(`/patients/${patientId}`);
  const analyses = page.getByRole('table', { name: "The patient's analyses, newest first" });
  await expect(analyses.getByRole('row')).toHaveCount(5);
  await context.close();
});
