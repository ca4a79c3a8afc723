import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { createAccount, createPatientWithScreening, uniqueEmail } from './helpers';
import { ecgCsv, pulseCsv } from './signals';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

test('the Reports page shows the stored figures and exports the same analyses as CSV', async ({ browser, baseURL }) => {
  mkdirSync(OUT, { recursive: true });
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await createAccount(context.request, { name: 'Paul Wood', email: uniqueEmail('reports') });
  await page.goto('/reports');
  await expect(page.getByText('No reports yet')).toBeVisible();

  const { patientId } = await createPatientWithScreening(context.request, { firstName: 'Elena', lastName: 'Marsh' });
  const uploads = [
    ['ecg', 'ecg.csv', ecgCsv(30)],
    ['ecg', 'ecg-2.csv', ecgCsv(20)],
    ['ppg', 'pulse.csv', pulseCsv(20)],
  ] as const;
  for (const [kind, name, buffer] of uploads) {
    const response = await context.request.post(`/api/predict/${kind}/upload`, {
      multipart: { file: { name, mimeType: 'text/csv', buffer }, patient_id: patientId },
    });
    expect(response.status(), await response.text()).toBe(200);
  }

  await page.goto('/reports');
  const figures = page.getByRole('list', { name: 'Figures of the period' });
  await expect(figures.getByRole('listitem').first()).toHaveText('3Analyses');
  await expect(page.getByText('ECG: 2 (66.7%)')).toBeVisible();
  await expect(page.getByText('PPG: 1 (33.3%)')).toBeVisible();
  const months = page.getByRole('table', { name: 'Analyses per month and modality' }).getByRole('row');
  await expect(months).toHaveCount(7);
  // ECG, PCG, PPG, Clinical this month.
  await expect(months.last()).toContainText('2010');
  // The charts are drawn (SVG bars and a pie).
  await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible();
  await expect(page.locator('.recharts-pie-sector').first()).toBeVisible();
  await page.screenshot({ path: join(OUT, 'light-reports.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(OUT, 'dark-reports.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('cardio-analyses.csv');
  const text = await (await context.request.get('/api/analyses/export.csv')).text();
  const lines = text.trim().split('\n');
  expect(lines[0]).toBe(
    'file,label,prediction,confidence,risk_score,patient_id,time,review_state,modality,analysis_id,ecg_interpretation,site',
  );
  expect(lines).toHaveLength(4);
  expect(lines.slice(1).every((line) => line.includes(patientId) && line.includes(',pending,'))).toBe(true);

  // Export All: one ZIP, whose central directory names the CSV, the three PDFs, the bundle and
  // the manifest.
  const zipDownload = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export All' }).click();
  const archive = await zipDownload;
  expect(archive.suggestedFilename()).toMatch(/^cardio-export-\d{4}-\d{2}-\d{2}\.zip$/);
  const bytes = readFileSync((await archive.path())!);
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
  const names = bytes.toString('latin1');
  for (const name of ['analyses.csv', `fhir/${patientId}.json`, 'manifest.json']) expect(names).toContain(name);
  expect(names.match(/reports\/analyses\/[0-9a-f-]+\.pdf/g)?.length).toBe(6); // local header + central directory
  await context.close();
});
