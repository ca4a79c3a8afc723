import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createAccount, createPatientWithScreening, uniqueEmail } from './helpers';
import { heartSoundWav, pulseCsv, twelveLeadCsv } from './signals';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

async function upload(
  request: APIRequestContext,
  kind: 'ecg' | 'pcg' | 'ppg',
  file: { name: string; mimeType: string; buffer: Buffer },
  patientId: string,
): Promise<string> {
  const response = await request.post(`/api/predict/${kind}/upload`, {
    multipart: { file, patient_id: patientId },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { analysis_id: string }).analysis_id;
}

/** The number of canvas pixels that differ from the first one (a blank canvas has none). */
async function drawnPixels(page: Page, name: RegExp): Promise<number> {
  return page.getByRole('img', { name }).evaluate((canvas) => {
    const context = (canvas as HTMLCanvasElement).getContext('2d');
    if (!context) return 0;
    const { data } = context.getImageData(
      0,
      0,
      (canvas as HTMLCanvasElement).width,
      (canvas as HTMLCanvasElement).height,
    );
    let differing = 0;
    for (let i = 4; i < data.length; i += 4) {
      if (data[i] !== data[0] || data[i + 1] !== data[1] || data[i + 2] !== data[2]) differing += 1;
    }
    return differing;
  });
}

async function bothThemes(page: Page, name: string) {
  await page.screenshot({ path: join(OUT, `light-${name}.png`), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(OUT, `dark-${name}.png`), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
}

test('analysis pages draw the stored recordings: 12-lead ECG paper, heart sounds with S1/S2, pulse peaks', async ({
  browser,
  baseURL,
}) => {
  mkdirSync(OUT, { recursive: true });
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await createAccount(context.request, { name: 'Paul Wood', email: uniqueEmail('waveforms') });
  const { patientId } = await createPatientWithScreening(context.request, { firstName: 'Elena', lastName: 'Marsh' });
  const ecg = await upload(
    context.request,
    'ecg',
    { name: 'rest-12-lead.csv', mimeType: 'text/csv', buffer: twelveLeadCsv(30) },
    patientId,
  );
  const pcg = await upload(
    context.request,
    'pcg',
    { name: 'heart.wav', mimeType: 'audio/wav', buffer: heartSoundWav(12, 4000) },
    patientId,
  );
  const ppg = await upload(
    context.request,
    'ppg',
    { name: 'pulse.csv', mimeType: 'text/csv', buffer: pulseCsv(30) },
    patientId,
  );

  // Test Results → View Details opens the analysis page.
  await page.goto('/test-results');
  const ecgCard = page.locator('.test-card', { hasText: 'ECG Analysis' });
  await ecgCard.getByRole('link', { name: 'View Details' }).click();
  await expect(page).toHaveURL(new RegExp(`/analyses/${ecg}$`));
  await expect(page.getByRole('heading', { name: 'ECG Analysis', level: 1 })).toBeVisible();
  const twelve = page.getByRole('img', { name: 'ECG waveform, 0:00.0 – 0:10.0 of 0:30.0' });
  await expect(twelve).toHaveAttribute('data-rows', '4');
  // 0.8-s beats: 12 or 13 R peaks of the rhythm lead fall in 10 s.
  expect(Number(await twelve.getAttribute('data-beats-in-view'))).toBeGreaterThanOrEqual(12);
  expect(await drawnPixels(page, /^ECG waveform/)).toBeGreaterThan(10_000);
  await bothThemes(page, 'analysis-ecg-12-lead');

  // Scroll with the keyboard, then every lead stacked.
  await page.locator('.waveform__viewport').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('img', { name: 'ECG waveform, 0:05.0 – 0:15.0 of 0:30.0' })).toBeVisible();
  await page.getByRole('button', { name: 'All leads' }).click();
  await expect(page.getByRole('img', { name: /^ECG waveform, 0:05\.0 – / })).toHaveAttribute('data-rows', '12');
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await page.screenshot({ path: join(OUT, 'light-analysis-ecg-leads.png'), fullPage: true });

  await page.goto(`/analyses/${pcg}`);
  const sounds = page.getByRole('img', { name: /^PCG waveform, 0:00\.0 – 0:04\.0 of 0:12\.0$/ });
  await expect(sounds).toBeVisible();
  expect(Number(await sounds.getAttribute('data-marks'))).toBeGreaterThanOrEqual(24);
  expect(await drawnPixels(page, /^PCG waveform/)).toBeGreaterThan(2_000);
  await bothThemes(page, 'analysis-pcg');

  await page.goto(`/analyses/${ppg}`);
  const pulse = page.getByRole('img', { name: /^PPG waveform, 0:00\.0 – 0:10\.0 of 0:30\.0$/ });
  await expect(pulse).toBeVisible();
  expect(Number(await pulse.getAttribute('data-marks'))).toBeGreaterThanOrEqual(36);
  await bothThemes(page, 'analysis-ppg');

  // The patient page links each analysis to its page.
  await page.goto(`/patients/${patientId}`);
  const table = page.getByRole('table', { name: "The patient's analyses, newest first" });
  await expect(table.getByRole('link', { name: 'View result' })).toHaveCount(3);
  await context.close();
});
