import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { createAccount, createPatientWithScreening, uniqueEmail } from './helpers';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

/** A 16-bit mono WAV: S1/S2-like bursts every 0.8 s (synthetic, written at run time). */
function heartSoundWav(seconds: number, rate: number): Buffer {
  const n = Math.round(seconds * rate);
  const data = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i += 1) {
    const t = i / rate;
    const phase = t % 0.8;
    let v = 0;
    for (const [start, freq] of [
      [0.05, 60],
      [0.35, 90],
    ] as const) {
      const d = phase - start;
      if (d >= 0 && d < 0.06) v += Math.sin(2 * Math.PI * freq * d) * Math.sin((Math.PI * d) / 0.06);
    }
    data.writeInt16LE(Math.round(v * 12000 + (Math.random() - 0.5) * 200), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** A CSV with a time column: a fingertip-like pulse at 75 bpm, 100 Hz. */
function pulseCsv(seconds: number): Buffer {
  const lines = ['time,PPG'];
  for (let i = 0; i < seconds * 100; i += 1) {
    const t = i / 100;
    const p = (t % 0.8) / 0.8;
    const v = Math.exp(-((p - 0.2) ** 2) / 0.005) + 0.3 * Math.exp(-((p - 0.55) ** 2) / 0.004);
    lines.push(`${t.toFixed(2)},${v.toFixed(5)}`);
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** A CSV ECG-like lead II trace: narrow R waves every 0.8 s at 250 Hz. */
function ecgCsv(seconds: number): Buffer {
  const lines = ['time,II'];
  for (let i = 0; i < seconds * 250; i += 1) {
    const t = i / 250;
    const d = (t % 0.8) - 0.3;
    const r = Math.abs(d) < 0.02 ? 1.2 * (1 - Math.abs(d) / 0.02) : 0;
    const tWave = 0.25 * Math.exp(-((d - 0.25) ** 2) / 0.002);
    const pWave = 0.1 * Math.exp(-((d + 0.15) ** 2) / 0.0008);
    lines.push(`${t.toFixed(3)},${(r + tWave + pWave).toFixed(4)}`);
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

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
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'pulse.csv', mimeType: 'text/csv', buffer: pulseCsv(20) });
  await expect(page.getByText('Analysed: Regular pulse rhythm')).toBeVisible();
  await page.getByRole('link', { name: 'Continue to ECG' }).click();

  await expect(page).toHaveURL(new RegExp(`/sensor-ecg\\?screening=${screeningId}$`));
  await page.locator('input[type=file]').setInputFiles({ name: 'ecg.csv', mimeType: 'text/csv', buffer: ecgCsv(30) });
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
