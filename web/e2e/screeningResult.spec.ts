import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { createAccount, createPatientWithScreening, uniqueEmail } from './helpers';
import { ecgCsv, pulseCsv } from './signals';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

/** The screening's analyses, newest first, as the server keeps them. */
async function analysesOf(
  request: APIRequestContext,
  screeningId: string,
): Promise<{ id: string; modality: string; result: { label: string } }[]> {
  const response = await request.get(`/api/analyses?screening_id=${screeningId}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as { id: string; modality: string; result: { label: string } }[];
}

/** The rows of the combined table whose status is Performed: what the badge's count must say. */
async function performedRows(combined: Locator): Promise<number> {
  const statuses = await combined.getByRole('row').locator('td:nth-child(2)').allTextContents();
  return statuses.filter((status) => status === 'Performed').length;
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: join(OUT, `light-${name}.png`), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  // Let the colour transitions finish before the picture.
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(OUT, `dark-${name}.png`), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
}

test("the ECG step shows the ECG's own result with its strip, and a refused file stores no second clinical analysis", async ({
  browser,
  baseURL,
}) => {
  mkdirSync(OUT, { recursive: true });
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await createAccount(context.request, { name: 'Paul Wood', email: uniqueEmail('ecg-step') });
  const { screeningId } = await createPatientWithScreening(context.request, { firstName: 'Elena', lastName: 'Marsh' });

  await page.goto(`/sensor-ecg?screening=${screeningId}`);
  // A PDF passes the page's extension rule, but this one is broken: the server says why (422) and
  // nothing is stored.
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7\n...') });
  await page.getByRole('button', { name: 'Analyze ECG Data' }).click();
  await expect(page.getByRole('alert')).toContainText('Cannot read the file: invalid PDF file');
  expect(await analysesOf(context.request, screeningId)).toEqual([]);

  await page.locator('input[type=file]').setInputFiles({ name: 'ecg.csv', mimeType: 'text/csv', buffer: ecgCsv(30) });
  await page.getByRole('button', { name: 'Analyze ECG Data' }).click();

  const ecg = page.getByRole('region', { name: 'ECG result' });
  await expect(ecg).toBeVisible();
  await expect(ecg.locator('.result__condition')).not.toBeEmpty();
  await expect(ecg.getByText('Confidence')).toBeVisible();
  await expect(ecg.getByText('Risk Score')).toBeVisible();
  await expect(ecg.locator('.result__headline .badge')).toBeVisible();
  const strip = ecg.getByRole('img', { name: /^ECG waveform/ });
  await expect(strip).toBeVisible();
  // Synthetic R waves every 0.8 s: the detected beats are marked on the strip.
  expect(Number(await strip.getAttribute('data-beats-in-view'))).toBeGreaterThan(0);

  const stored = await analysesOf(context.request, screeningId);
  expect(stored.map((a) => a.modality).sort()).toEqual(['clinical', 'ecg']);
  const ecgAnalysis = stored.find((a) => a.modality === 'ecg');
  await expect(ecg.getByRole('link', { name: 'Open the ECG analysis' })).toHaveAttribute(
    'href',
    `/analyses/${ecgAnalysis?.id}`,
  );
  // The ECG's own result comes before the combined table.
  const table = page.getByRole('table', { name: 'Each modality of the screening' });
  const ecgBox = await ecg.boundingBox();
  const tableBox = await table.boundingBox();
  expect(ecgBox && tableBox && ecgBox.y + ecgBox.height <= tableBox.y).toBeTruthy();
  // A result the model called anything but normal is never shown in success colours.
  if (ecgAnalysis && ecgAnalysis.result.label !== 'normal') {
    await expect(ecg.locator('.result__headline .badge')).not.toHaveClass(/badge--success/);
  }

  // The sign-off starts with nothing chosen and asks for a choice.
  const review = page.locator('section.review');
  await expect(review.getByRole('radio', { name: 'Agree', exact: true })).not.toBeChecked();
  await expect(review.getByRole('radio', { name: 'Disagree' })).not.toBeChecked();
  await review.getByRole('button', { name: 'Sign off' }).click();
  await expect(review.getByRole('alert')).toHaveText(
    "Choose whether you agree or disagree with the model's finding before signing off.",
  );
  await shoot(page, 'ecg-step-result');

  await ecg.getByRole('link', { name: 'Open the ECG analysis' }).click();
  await expect(page).toHaveURL(new RegExp(`/analyses/${ecgAnalysis?.id}$`));
  await context.close();
});

test('the combined badge says how many modalities it rests on, and counts a pulse recorded after completion', async ({
  browser,
  baseURL,
}) => {
  mkdirSync(OUT, { recursive: true });
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await createAccount(context.request, { name: 'Paul Wood', email: uniqueEmail('combined-badge') });
  const { patientId, screeningId } = await createPatientWithScreening(context.request, {
    firstName: 'Elena',
    lastName: 'Marsh',
  });

  await page.goto(`/sensor-ecg?screening=${screeningId}`);
  await page.locator('input[type=file]').setInputFiles({ name: 'ecg.csv', mimeType: 'text/csv', buffer: ecgCsv(30) });
  await page.getByRole('button', { name: 'Analyze ECG Data' }).click();
  const combined = page.getByRole('region', { name: 'Combined screening result' });
  await expect(combined).toBeVisible();
  const rows = combined.getByRole('row');
  await expect(rows.nth(3)).toContainText('PPGNot performed');
  const before = await performedRows(combined);
  const badge = combined.locator('.result__headline .badge');
  await expect(badge).toContainText(`based on ${before} of 4`);
  if (before <= 1) await expect(badge).not.toHaveClass(/badge--success/);
  await shoot(page, 'combined-before-ppg');

  // A pulse recorded after the screening was completed.
  await combined.getByRole('link', { name: 'Record PPG' }).click();
  await expect(page).toHaveURL(new RegExp(`/sensor-ppg\\?screening=${screeningId}$`));
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'pulse.csv', mimeType: 'text/csv', buffer: pulseCsv(20) });
  const line = page.locator('.upload-step__result');
  await expect(line).toContainText('Analysed: ');
  const ppg = (await analysesOf(context.request, screeningId)).find((a) => a.modality === 'ppg');
  const finding =
    ppg?.result.label === 'normal'
      ? 'normal'
      : /unsure|noisy/.test(ppg?.result.label ?? '')
        ? 'inconclusive'
        : 'abnormal';
  await expect(line).toHaveClass(new RegExp(`upload-step__result--${finding}`));
  await page.getByRole('link', { name: 'Continue to ECG' }).click();

  await expect(combined).toBeVisible();
  await expect(rows.nth(3)).not.toContainText('Not performed');
  const judged = ppg?.result.label === 'unsure' || ppg?.result.label === 'noisy' ? 0 : 1;
  await expect(rows.nth(3)).toContainText(judged ? 'PPGPerformed' : 'PPGInconclusive');
  const after = await performedRows(combined);
  expect(after).toBe(before + judged);
  await expect(badge).toContainText(`based on ${after} of 4`);
  await shoot(page, 'combined-after-ppg');

  // The server says the same on every read, and so does the patient's page.
  const screening = await (await context.request.get(`/api/screenings/${screeningId}`)).json();
  expect(screening.combined.based_on).toBe(after);
  expect(screening.combined.out_of).toBe(4);
  expect(screening.combined.modalities[2].analysis_id).toBe(ppg?.id);
  await page.goto(`/patients/${patientId}`);
  const screenings = page.getByRole('table', { name: 'Screenings, newest first' });
  await expect(screenings.locator('.badge', { hasText: 'Overall risk' })).toContainText(`based on ${after} of 4`);
  await context.close();
});

test('a low risk from the clinical values alone is not a green "Low Risk": it says it rests on 1 of 4', async ({
  browser,
  baseURL,
}) => {
  mkdirSync(OUT, { recursive: true });
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await createAccount(context.request, { name: 'Paul Wood', email: uniqueEmail('single-modality') });
  const { patientId, screeningId } = await createPatientWithScreening(context.request, {
    firstName: 'Elena',
    lastName: 'Marsh',
  });
  // Only the clinical model, on the values of a young patient without findings, then the combination.
  const clinical = await context.request.post('/api/predict/clinical', {
    data: {
      age: 29,
      chest_pain_type: 2,
      cholesterol: 170,
      fasting_blood_sugar: 85,
      exercise_induced_angina: 0,
      vessels_colored_by_flourosopy: 0,
      thalassemia: 0,
      screening_id: screeningId,
    },
  });
  expect(clinical.status()).toBe(200);
  const { risk_score: risk } = (await clinical.json()) as { risk_score: number };
  expect((await context.request.post(`/api/screenings/${screeningId}/combine`)).status()).toBe(200);

  await page.goto(`/sensor-ecg?screening=${screeningId}`);
  const combined = page.getByRole('region', { name: 'Combined screening result' });
  const badge = combined.locator('.result__headline .badge');
  await expect(badge).toContainText('based on 1 of 4');
  await expect(badge).not.toHaveClass(/badge--success/);
  if (risk <= 0.4) await expect(badge).toHaveText(/Low Risk · based on 1 of 4/);
  await expect(combined.getByText(/^Only one of the 4 modalities \(Clinical\) could be judged/)).toBeVisible();
  // No ECG in this screening: no ECG result section, and a way to add one.
  await expect(page.getByRole('region', { name: 'ECG result' })).toHaveCount(0);
  await expect(combined.getByRole('button', { name: 'Analyze an ECG' })).toBeVisible();
  await shoot(page, 'combined-single-modality');

  await page.goto(`/patients/${patientId}`);
  const listed = page
    .getByRole('table', { name: 'Screenings, newest first' })
    .locator('.badge', { hasText: 'Overall risk' });
  await expect(listed).toContainText('based on 1 of 4');
  await expect(listed).not.toHaveClass(/badge--success/);
  await context.close();
});
