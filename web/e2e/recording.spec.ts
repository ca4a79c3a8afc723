import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { createAccount, createPatientWithScreening, uniqueEmail, uniquePhone, uniqueSurname } from './helpers';
import { ecgCsv, heartSoundWav, pulsingFingertipY4m } from './signals';

// Chromium's fake microphone plays this file in a loop; it is written before the browser starts.
const HEART_WAV = join(tmpdir(), `cardio-e2e-heart-${process.pid}.wav`);
writeFileSync(HEART_WAV, heartSoundWav(10, 44100));
// ...and the fake camera this video: a fingertip pulsing at 72 bpm.
const PULSE_BPM = 72;
const FINGER_Y4M = join(tmpdir(), `cardio-e2e-finger-${process.pid}.y4m`);
writeFileSync(FINGER_Y4M, pulsingFingertipY4m(PULSE_BPM, 6));

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-gpu',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${HEART_WAV}`,
      `--use-file-for-fake-video-capture=${FINGER_Y4M}`,
    ],
  },
});

test('heart sounds recorded from the microphone are stored with the screening and analysed', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await createAccount(context.request, { name: 'Paul Wood', email: uniqueEmail('recording') });
  const { screeningId } = await createPatientWithScreening(context.request, { firstName: 'Ines', lastName: 'Roth' });

  await page.goto(`/sensor-pcg?screening=${screeningId}`);
  await page.getByRole('button', { name: 'Start Recording' }).click();
  await expect(page.locator('.upload-step__status dd')).toHaveText('Recording...');
  await expect(page.getByRole('button', { name: 'Retry' })).toBeDisabled();
  // Record a little over 7 s, then stop.
  await expect
    .poll(async () => Number.parseFloat((await page.locator('.recorder__figures dd').first().textContent()) ?? '0'), {
      timeout: 15_000,
    })
    .toBeGreaterThan(7);
  const points = Number(await page.locator('.recorder__figures dd').nth(1).textContent());
  expect(points).toBeGreaterThan(7 * 8000);
  await page.getByRole('button', { name: 'Stop Recording' }).click();

  await expect(page.locator('.upload-step__status dd')).toHaveText('Completed', { timeout: 15_000 });
  await expect(page.getByText(/^Analysed: /)).toBeVisible();
  await page.screenshot({ path: join('e2e', 'screenshots', 'light-workflow-pcg-recorded.png'), fullPage: true });
  const analyses = await (await context.request.get(`/api/analyses?screening_id=${screeningId}`)).json();
  expect(analyses).toHaveLength(1);
  expect(analyses[0].fileName).toBe('pcg-recording.wav');
  expect(analyses[0].result.details.sampling_rate_hz).toBeGreaterThanOrEqual(8000);
  await expect(page.getByRole('link', { name: 'Continue to PPG' })).toBeVisible();
  await context.close();
});

test('heart sounds recorded at two auscultation sites give one murmur verdict over both', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await createAccount(context.request, { name: 'Paul Wood', email: uniqueEmail('sites') });
  const { screeningId } = await createPatientWithScreening(context.request, { firstName: 'Ines', lastName: 'Roth' });

  await page.goto(`/sensor-pcg?screening=${screeningId}`);
  await expect(page.getByRole('region', { name: 'Patient' })).toContainText('Ines Roth');
  const recordAt = async (site: 'AV' | 'MV') => {
    const button = page.getByRole('button', { name: new RegExp(`^${site} `) });
    await button.click();
    await expect(button).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('button', { name: 'Start Recording' }).click();
    await expect(page.locator('.upload-step__status dd')).toHaveText('Recording...');
    await expect
      .poll(async () => Number.parseFloat((await page.locator('.recorder__figures dd').first().textContent()) ?? '0'), {
        timeout: 15_000,
      })
      .toBeGreaterThan(7);
    await page.getByRole('button', { name: 'Stop Recording' }).click();
    await expect(page.locator('.upload-step__status dd')).toHaveText('Completed', { timeout: 20_000 });
    await expect(page.getByTestId(`site-status-${site}`)).not.toHaveText('Not recorded');
  };
  await recordAt('AV');
  await recordAt('MV');

  const analyses = (await (await context.request.get(`/api/analyses?screening_id=${screeningId}`)).json()) as {
    site: string;
  }[];
  expect(analyses.map((a) => a.site)).toEqual(['MV', 'AV']);
  const screening = await (await context.request.get(`/api/screenings/${screeningId}`)).json();
  const murmur = screening.murmur;
  expect(murmur.sites.map((s: { site: string }) => s.site)).toEqual(['AV', 'MV']);
  const words: Record<string, string> = {
    present: 'Murmur present',
    absent: 'No murmur heard',
    unknown: 'Unknown: the recordings do not allow a verdict',
  };
  const summary = page.getByRole('region', { name: 'Heart murmur' });
  await expect(summary.getByTestId('murmur-verdict')).toContainText(words[murmur.verdict as string] ?? '?');
  await expect(summary).toContainText('Read over 2 of 4 auscultation sites.');
  await page.screenshot({ path: join('e2e', 'screenshots', 'light-workflow-pcg-sites.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(300);
  await page.screenshot({ path: join('e2e', 'screenshots', 'dark-phone-workflow-pcg-sites.png'), fullPage: true });
  await context.close();
});

test('an uploaded 1-kHz heart-sound file plays back (upsampled in the browser)', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await createAccount(context.request, { name: 'Paul Wood', email: uniqueEmail('playback') });
  const { screeningId } = await createPatientWithScreening(context.request, { firstName: 'Ines', lastName: 'Roth' });

  await page.goto(`/sensor-pcg?screening=${screeningId}`);
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'heart-1khz.wav', mimeType: 'audio/wav', buffer: heartSoundWav(10, 1000) });
  await page.getByRole('button', { name: 'Play' }).click();
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect(page.getByText('Unable to play audio. Please try again.')).toHaveCount(0);
  // The element really plays: its clock moves, at the upsampled rate's duration.
  await expect
    .poll(async () => page.locator('audio').evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 10_000 })
    .toBeGreaterThan(0.2);
  expect(await page.locator('audio').evaluate((a: HTMLAudioElement) => Math.round(a.duration))).toBe(10);

  // The analysis page plays the stored recording back with a cursor moving over the strip.
  await expect(page.locator('.upload-step__status dd')).toHaveText('Completed', { timeout: 15_000 });
  const [analysis] = (await (await context.request.get(`/api/analyses?screening_id=${screeningId}`)).json()) as {
    id: string;
  }[];
  await page.goto(`/analyses/${analysis?.id}`);
  const waveform = page.getByRole('region', { name: 'Waveform' });
  await expect(waveform.getByRole('img', { name: /PCG waveform/ })).toBeVisible();
  await expect(waveform.getByTestId('playback-cursor')).toHaveCount(0);
  await waveform.getByRole('button', { name: 'Play' }).click();
  await expect(waveform.getByRole('button', { name: 'Pause' })).toBeVisible();
  const cursorLeft = () =>
    waveform.getByTestId('playback-cursor').evaluate((c: HTMLElement) => Number.parseFloat(c.style.left));
  await expect.poll(cursorLeft, { timeout: 10_000 }).toBeGreaterThan(5);
  const earlier = await cursorLeft();
  await expect.poll(cursorLeft, { timeout: 10_000 }).not.toBe(earlier);
  await page.screenshot({ path: join('e2e', 'screenshots', 'light-analysis-pcg-playback.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(400);
  await page.screenshot({ path: join('e2e', 'screenshots', 'dark-analysis-pcg-playback.png'), fullPage: true });
  await waveform.getByRole('button', { name: 'Pause' }).click();
  await expect(waveform.getByRole('button', { name: 'Play' })).toBeVisible();
  await context.close();
});

test('the pulse recorded from the camera gives the heart rate that was put into the video', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await createAccount(context.request, { name: 'Paul Wood', email: uniqueEmail('camera') });
  const { screeningId } = await createPatientWithScreening(context.request, { firstName: 'Omar', lastName: 'Haddad' });

  await page.goto(`/sensor-ppg?screening=${screeningId}`);
  await page.getByRole('button', { name: 'Start Recording' }).click();
  await expect(page.locator('.upload-step__status dd')).toHaveText('Recording...');
  // The recording stops by itself after 12 s, then is uploaded and analysed.
  await expect(page.locator('.upload-step__status dd')).toHaveText('Completed', { timeout: 30_000 });
  await expect(page.getByText(/^Analysed: /)).toBeVisible();
  await page.screenshot({ path: join('e2e', 'screenshots', 'light-workflow-ppg-camera.png'), fullPage: true });
  const analyses = await (await context.request.get(`/api/analyses?screening_id=${screeningId}`)).json();
  expect(analyses).toHaveLength(1);
  expect(analyses[0].fileName).toBe('ppg-camera.csv');
  const heartRate = analyses[0].result.details.heart_rate_bpm as number;
  expect(Math.abs(heartRate - PULSE_BPM)).toBeLessThanOrEqual(3);
  await context.close();
});

test('the whole screening in the browser: intake, clinical data, heart sounds and pulse recorded, ECG uploaded, combined result saved', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const shot = async (name: string) => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(300);
      await page.screenshot({ path: join('e2e', 'screenshots', `${scheme}-flow-${name}.png`), fullPage: true });
    }
    await page.emulateMedia({ colorScheme: 'light' });
  };
  await createAccount(context.request, { name: 'Helen Taussig', email: uniqueEmail('flow') });
  const lastName = uniqueSurname();

  await page.goto('/intake');
  await page.locator('#intake-firstName').fill('Lena');
  await page.locator('#intake-lastName').fill(lastName);
  await page.locator('#intake-dateOfBirth').fill('1962-05-20');
  await page.locator('#intake-gender').selectOption('female');
  await page.locator('#intake-phone').fill(uniquePhone());
  await page.getByRole('button', { name: 'Continue to Clinical Data' }).click();
  await expect(page).toHaveURL(/\/clinical-data\?screening=[\w-]+$/);
  const screeningId = new URL(page.url()).searchParams.get('screening') ?? '';

  await page.getByLabel('Age', { exact: true }).fill('64');
  await page.getByLabel('Chest Pain Type').selectOption({ label: 'Asymptomatic' });
  await page.getByLabel('Cholesterol (mg/dl)').fill('286');
  await page.getByLabel('Fasting Blood Sugar (mg/dl)').fill('100');
  await page.getByLabel('Exercise Induced Angina').selectOption({ label: 'Yes' });
  await page.getByLabel('Vessels Colored by Fluoroscopy').selectOption('2');
  await page.getByLabel('Thalassemia').selectOption({ label: 'Reversible Defect' });
  await shot('clinical');
  await page.getByRole('button', { name: 'Continue to PCG Sensor' }).click();
  await expect(page).toHaveURL(new RegExp(`/sensor-pcg\\?screening=${screeningId}$`));

  await page.getByRole('button', { name: 'Start Recording' }).click();
  await expect
    .poll(async () => Number.parseFloat((await page.locator('.recorder__figures dd').first().textContent()) ?? '0'), {
      timeout: 15_000,
    })
    .toBeGreaterThan(6.5);
  await page.getByRole('button', { name: 'Stop Recording' }).click();
  await expect(page.getByText(/^Analysed: /)).toBeVisible({ timeout: 15_000 });
  await shot('pcg');
  await page.getByRole('link', { name: 'Continue to PPG' }).click();

  // Until the next step is shown, the previous step's buttons, texts and file input are still on the
  // page: wait for the new step (its URL, its patient, its status) before acting on it.
  await expect(page).toHaveURL(new RegExp(`/sensor-ppg\\?screening=${screeningId}$`));
  await expect(page.getByRole('region', { name: 'Patient' })).toContainText(lastName);
  await expect(page.locator('.upload-step__status dd')).toHaveText('Ready');
  await page.getByRole('button', { name: 'Start Recording' }).click();
  await expect(page.getByText(/^Analysed: /)).toBeVisible({ timeout: 30_000 });
  await shot('ppg');
  await page.getByRole('link', { name: 'Continue to ECG' }).click();

  await expect(page).toHaveURL(new RegExp(`/sensor-ecg\\?screening=${screeningId}$`));
  await expect(page.getByRole('region', { name: 'Patient' })).toContainText(lastName);
  await page.locator('input[type=file]').setInputFiles({ name: 'ecg.csv', mimeType: 'text/csv', buffer: ecgCsv(30) });
  await page.getByRole('button', { name: 'Analyze ECG Data' }).click();
  const combined = page.getByRole('region', { name: 'Combined screening result' });
  await expect(combined).toBeVisible({ timeout: 15_000 });
  const rows = combined.getByRole('row');
  await expect(rows).toHaveCount(5);
  for (const [i, name] of ['Clinical', 'PCG', 'PPG', 'ECG'].entries()) {
    await expect(rows.nth(i + 1)).toContainText(name);
    await expect(rows.nth(i + 1)).not.toContainText('Not performed');
  }
  await shot('combined');

  const screening = await (await context.request.get(`/api/screenings/${screeningId}`)).json();
  expect(screening.status).toBe('completed');
  await page.goto('/test-results');
  await expect(page.locator('.test-card', { hasText: lastName })).toHaveCount(3);
  await shot('test-results');
  await page.goto(`/patients/${screening.patient.id}`);
  await expect(page.getByRole('table', { name: "The patient's analyses, newest first" }).getByRole('row')).toHaveCount(
    5,
  );
  await shot('patient');
  await context.close();
});
