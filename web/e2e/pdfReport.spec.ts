import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { createAccount, createPatientWithScreening, uniqueEmail } from './helpers';
import { ecgCsv } from './signals';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

test('a doctor reviews a result and downloads its PDF report, which says so', async ({ browser, baseURL }) => {
  mkdirSync(OUT, { recursive: true });
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  await createAccount(context.request, { name: 'Paul Wood', email: uniqueEmail('pdf') });
  const { patientId } = await createPatientWithScreening(context.request, { firstName: 'Elena', lastName: 'Marsh' });
  const upload = await context.request.post('/api/predict/ecg/upload', {
    multipart: { file: { name: 'ecg.csv', mimeType: 'text/csv', buffer: ecgCsv(30) }, patient_id: patientId },
  });
  expect(upload.status(), await upload.text()).toBe(200);
  const { analysis_id: id } = (await upload.json()) as { analysis_id: string };

  await page.goto(`/analyses/${id}`);
  const panel = page.locator('section.review');
  await panel.getByRole('radio', { name: 'Disagree' }).check();
  await panel.getByLabel('Comment: why do you disagree?').fill('Baseline wander; sinus rhythm on review.');
  await panel.getByRole('button', { name: 'Sign off' }).click();
  await expect(panel.locator('.review__current')).toContainText("disagreed with the model's finding");

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download PDF report' }).first().click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`cardio-analysis-${id}.pdf`);
  const dir = mkdtempSync(join(tmpdir(), 'cardio-pdf-'));
  const pdf = join(dir, 'report.pdf');
  await file.saveAs(pdf);
  const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
  expect(text).toContain('Elena Marsh');
  expect(text).toContain('Paul Wood');
  expect(text).toContain('ECG (electrocardiogram)');
  expect(text).toMatch(/Disagreed with the model's finding/i);
  expect(text).toContain('Baseline wander; sinus rhythm on review.');
  expect(text).toContain('25 mm/s');
  expect(text).toMatch(/Page 1 of \d/);
  // The first page as a picture, to look at.
  execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', pdf, join(OUT, 'pdf-report')]);

  // The Reports page lists it in the report history, with a link to download it again.
  await page.goto('/reports');
  const history = page.getByRole('table', { name: 'Every PDF report generated, newest first' });
  await expect(history.getByRole('row')).toHaveCount(2);
  await expect(history.getByRole('row').nth(1)).toContainText('AnalysisElena Marsh');
  await expect(history.getByRole('link', { name: 'Download' })).toHaveAttribute(
    'href',
    `/api/analyses/${id}/report.pdf`,
  );
  await context.close();
});

test("in Spanish, a result and its PDF report carry the model's finding and recommendations in Spanish", async ({
  browser,
  baseURL,
}) => {
  mkdirSync(OUT, { recursive: true });
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  await createAccount(context.request, { name: 'Paul Wood', email: uniqueEmail('pdf-es') });
  const { patientId } = await createPatientWithScreening(context.request, { firstName: 'Elena', lastName: 'Marsh' });
  const upload = await context.request.post('/api/predict/ecg/upload', {
    multipart: { file: { name: 'ecg.csv', mimeType: 'text/csv', buffer: ecgCsv(30) }, patient_id: patientId },
  });
  expect(upload.status(), await upload.text()).toBe(200);
  const { analysis_id: id, prediction } = (await upload.json()) as { analysis_id: string; prediction: string };
  expect(prediction).toBe('Normal sinus rhythm');

  await page.goto(`/analyses/${id}`);
  await expect(page.getByText('Normal sinus rhythm')).toBeVisible();
  await page.getByRole('combobox', { name: 'Language' }).selectOption('es');
  await expect(page.getByText('Ritmo sinusal normal')).toBeVisible();
  await expect(page.getByText('Normal sinus rhythm')).toHaveCount(0);
  await expect(page.getByText(/^No se encontró fibrilación auricular ni otra alteración del ritmo/)).toBeVisible();
  // The lead is named (II): the measurements are in their panel, the other details behind "Más detalles".
  await expect(page.getByText('Mediciones del ECG (latido mediano)')).toBeVisible();
  await page.getByText('Más detalles').first().click();
  await expect(page.getByText('frecuencia cardíaca lpm:')).toBeVisible();
  // The checks' reasons too (the gate's, here as the ECG's quality).
  await expect(page.getByText('utilizable: parece un registro real: ECG', { exact: false }).first()).toBeVisible();
  await expect(page.getByText('it looks like a real ECG', { exact: false })).toHaveCount(0);
  await page.screenshot({ path: join(OUT, 'light-analysis-es.png'), fullPage: true });
  // The choice is the account's: the server writes the report in it.
  await expect
    .poll(async () => ((await (await context.request.get('/api/settings')).json()) as { language: string }).language)
    .toBe('es');

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Descargar informe PDF' }).first().click();
  const file = await download;
  const dir = mkdtempSync(join(tmpdir(), 'cardio-pdf-es-'));
  const pdf = join(dir, 'informe.pdf');
  await file.saveAs(pdf);
  const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  expect(text).toContain('Informe de cribado cardiovascular');
  expect(text).toContain('Ritmo sinusal normal');
  expect(text).toContain('No se encontró fibrilación auricular ni otra alteración del ritmo en esta grabación');
  expect(text).toContain('Esta es una estimación de cribado de un modelo estadístico, no un diagnóstico');
  expect(text).not.toContain('Normal sinus rhythm');
  expect(text).toContain('utilizable: parece un registro real: ECG');
  expect(text).not.toContain('it looks like a real');
  expect(text).toMatch(/Página 1 de \d/);
  execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', pdf, join(OUT, 'pdf-report-es')]);
  await context.close();
});
