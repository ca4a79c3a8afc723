import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { createAccount, createPatientWithScreening, uniqueEmail } from './helpers';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');
const PULSE_BPM = 72;
const VIDEO_SECONDS = 12;

/**
 * Records a real WebM in the browser: a canvas painted with a red level pulsing at `bpm` (a fingertip
 * over a lit camera), captured at 30 frames/s by MediaRecorder for `seconds`. Returns it in base64.
 */
function recordPulsingVideo(page: Page, bpm: number, seconds: number): Promise<string> {
  return page.evaluate(
    async ({ bpm, seconds }) => {
      const canvas = document.createElement('canvas');
      canvas.width = 160;
      canvas.height = 120;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2D canvas');
      const started = performance.now();
      // A pulse wave (systolic peak and dicrotic wave, as wide as a real one), its rate varying by
      // ±3 bpm with breathing, and a little sensor noise; the fingertip darker at each systole, as
      // blood absorbs the light: a real fingertip, not a pure tone (a needle-thin peak is refused as
      // too peaky to be a pulse).
      const paint = () => {
        const t = (performance.now() - started) / 1000;
        const tau = 2 * Math.PI;
        const beats = (bpm * t - (3 / (tau * 0.25)) * (Math.cos(tau * 0.25 * t) - 1)) / 60;
        const p = beats % 1;
        const pulse = Math.exp(-((p - 0.25) ** 2) / 0.012) + 0.35 * Math.exp(-((p - 0.6) ** 2) / 0.01);
        // The level is continuous, as a camera's average over many pixels is: the canvas holds
        // whole levels, so a share of its rows one level up carries the fraction (whole levels alone
        // repeat the top value from frame to frame, which reads as clipping).
        const red = 190 - 30 * pulse + 3 * (Math.random() - 0.5);
        const whole = Math.floor(red);
        context.fillStyle = `rgb(${whole}, 35, 25)`;
        context.fillRect(0, 0, canvas.width, canvas.height);
        context.fillStyle = `rgb(${whole + 1}, 35, 25)`;
        context.fillRect(0, 0, canvas.width, Math.round((red - whole) * canvas.height));
      };
      paint();
      const painter = window.setInterval(paint, 1000 / 60);
      const recorder = new MediaRecorder(canvas.captureStream(30), {
        mimeType: 'video/webm;codecs=vp8',
        videoBitsPerSecond: 1_000_000,
      });
      const chunks: Blob[] = [];
      recorder.ondataavailable = (event) => chunks.push(event.data);
      const stopped = new Promise((done) => {
        recorder.onstop = done;
      });
      recorder.start(1000);
      await new Promise((wait) => window.setTimeout(wait, seconds * 1000));
      recorder.stop();
      await stopped;
      window.clearInterval(painter);
      const blob = new Blob(chunks, { type: 'video/webm' });
      return new Promise<string>((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result).split(',')[1] ?? '');
        reader.onerror = () => reject(reader.error);
        reader.readAsDataURL(blob);
      });
    },
    { bpm, seconds },
  );
}

test('a video of a fingertip pulsing at 72 bpm, read in the browser, gives that heart rate; a PDF, an undecodable and a 1-s video are refused', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  mkdirSync(OUT, { recursive: true });
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  // A dialog is taken as the viewport shows it (a full-page picture would stretch its fixed backdrop).
  const shot = async (name: string, fullPage = true) => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      // Let the colour transitions finish before the picture.
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(OUT, `${scheme}-workflow-ppg-${name}.png`), fullPage });
    }
    await page.emulateMedia({ colorScheme: 'light' });
  };
  await createAccount(context.request, { name: 'Paul Wood', email: uniqueEmail('video') });
  const { screeningId } = await createPatientWithScreening(context.request, { firstName: 'Nadia', lastName: 'Okafor' });

  await page.goto(`/sensor-ppg?screening=${screeningId}`);
  const status = page.locator('.upload-step__status dd');
  await expect(status).toHaveText('Ready');
  const video = Buffer.from(await recordPulsingVideo(page, PULSE_BPM, VIDEO_SECONDS), 'base64');
  expect(video.length).toBeGreaterThan(1000);

  // A PDF is refused with the spec's text; a file that is no video, and a 1-s video, are refused
  // with their own messages; then the video is read.
  const input = page.locator('input[type=file]');
  const alert = page.getByRole('alert');
  await input.setInputFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
  await expect(alert).toHaveText('Please upload an audio/video file');
  await input.setInputFiles({ name: 'broken.webm', mimeType: 'video/webm', buffer: Buffer.alloc(4096, 7) });
  await expect(alert).toHaveText(
    'This video could not be decoded by the browser. Try an MP4 (H.264) or WebM file, or upload the pulse signal as a CSV file.',
  );
  const short = Buffer.from(await recordPulsingVideo(page, PULSE_BPM, 1), 'base64');
  await input.setInputFiles({ name: 'short.webm', mimeType: 'video/webm', buffer: short });
  await expect(alert).toHaveText(
    /^The video is too short: only [01]\.\d s of frames were read, and at least 2 s are needed\.$/,
  );
  await expect(status).toHaveText('Ready');
  await input.setInputFiles({ name: 'finger.webm', mimeType: 'video/webm', buffer: video });
  await expect(status).toHaveText(/^Reading video frames: \d+%$/);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect
    .poll(async () => Number(await page.locator('.recorder__figures dd').nth(1).textContent()))
    .toBeGreaterThan(30);
  await shot('video-reading');

  await expect(status).toHaveText('Completed', { timeout: 60_000 });
  await expect(page.getByText('Analysed: ')).toBeVisible();
  await expect(page.getByText('Selected: finger.csv', { exact: false })).toBeVisible();
  const frames = Number(await page.locator('.recorder__figures dd').nth(1).textContent());
  const analyses = await (await context.request.get(`/api/analyses?screening_id=${screeningId}`)).json();
  expect(analyses).toHaveLength(1);
  expect(analyses[0].fileName).toBe('finger.csv');
  const heartRate = analyses[0].result.details.heart_rate_bpm as number;
  console.log(
    `video PPG: ${frames} frames read, heart rate ${heartRate} bpm (put in: ${PULSE_BPM}); ${String(analyses[0].result.details.quality_reason)}`,
  );
  expect(Math.abs(heartRate - PULSE_BPM)).toBeLessThanOrEqual(3);
  await shot('video');
  await page.getByRole('button', { name: 'View result' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await shot('video-result', false);
  await context.close();
});
