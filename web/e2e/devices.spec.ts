import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { createAccount, createPatientWithScreening, uniqueEmail } from './helpers';
import { ecgCsv } from './signals';

const OUT = join('e2e', 'screenshots');
const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CARDIO = resolve(webDir, process.env.CARDIO_BIN ?? '../target/debug/cardio');

/**
 * Replaces `navigator.serial` (headless Chromium cannot reach a real port) with a fake USB serial
 * ECG front end: an Arduino (2341:0043) that, once opened, streams a lead II trace in the line
 * protocol, `# rate=250 kind=ecg` first, CRLF line ends, chunks cut anywhere (lines split across
 * reads), now and then a garbled line, four times faster than real time. It records what the page
 * writes in `window.__serialWritten`. Runs in the page before any script.
 */
function installFakeSerial() {
  const written: string[] = [];
  (window as unknown as { __serialWritten: string[] }).__serialWritten = written;
  const ecgValue = (i: number) => {
    const t = i / 250;
    // About 75 bpm, varying by ±3 bpm with breathing, with baseline wander and a little noise: a
    // perfectly regular, noiseless trace is refused as not a heart.
    const tau = 2 * Math.PI;
    const beats = (75 * t - (3 / (tau * 0.25)) * (Math.cos(tau * 0.25 * t) - 1)) / 60;
    const d = ((beats % 1) - 0.375) * 0.8;
    const g = (c: number, w: number, a: number) => a * Math.exp(-((d - c) ** 2) / w);
    const noise = ((Math.sin(i * 12.9898) * 43758.5453) % 1) * 0.02;
    const mv =
      g(-0.16, 0.0008, 0.12) +
      g(-0.02, 0.00005, -0.1) +
      g(0, 0.00012, 1.2) +
      g(0.025, 0.00005, -0.25) +
      g(0.22, 0.002, 0.3) +
      0.05 * Math.sin(tau * 0.25 * t) +
      noise;
    // A 10-bit ADC around mid-scale, as an AD8232 on an Arduino reads it.
    return Math.round(512 + 300 * mv);
  };
  const port = {
    readable: null as ReadableStream<Uint8Array> | null,
    writable: null as WritableStream<Uint8Array> | null,
    getInfo: () => ({ usbVendorId: 0x2341, usbProductId: 0x0043 }),
    async open() {
      let sample = 0;
      let pending = '# rate=250 kind=ecg\r\n';
      let cut = 7;
      const encoder = new TextEncoder();
      port.readable = new ReadableStream<Uint8Array>({
        async pull(controller) {
          await new Promise((done) => setTimeout(done, 40));
          // 40 samples per 40 ms: 1000 samples/s, four times the declared 250 Hz.
          for (let n = 0; n < 40; n++, sample++) {
            pending += sample % 997 === 500 ? 'E#R\r\n' : `${ecgValue(sample)}\r\n`;
          }
          cut = (cut * 31 + 17) % 97;
          const at = Math.max(1, pending.length - cut);
          controller.enqueue(encoder.encode(pending.slice(0, at)));
          pending = pending.slice(at);
        },
      });
      port.writable = new WritableStream<Uint8Array>({
        write(chunk) {
          written.push(new TextDecoder().decode(chunk));
        },
      });
    },
    async close() {
      port.readable = null;
      port.writable = null;
    },
  };
  const serial = {
    getPorts: async () => (localStorage.getItem('fake-serial-granted') === '1' ? [port] : []),
    requestPort: async () => {
      localStorage.setItem('fake-serial-granted', '1');
      return port;
    },
  };
  Object.defineProperty(navigator, 'serial', { value: serial, configurable: true });
}

/** Client-side navigation (a reload would close the serial port, as in a real browser). */
async function navigateInApp(page: Page, url: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, url);
}

test('a USB serial ECG front end streams live on the Devices page and is recorded in the ECG step', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  await context.addInitScript(installFakeSerial);
  const page = await context.newPage();
  await createAccount(context.request, { name: 'Lena Fischer', email: uniqueEmail('serial') });
  const { screeningId } = await createPatientWithScreening(context.request, { firstName: 'Jonas', lastName: 'Berg' });

  await page.goto('/devices');
  const serial = page.getByRole('region', { name: 'USB Serial Devices' });
  await expect(serial.getByText('No serial devices found')).toBeVisible();
  await serial.getByRole('button', { name: 'Add device' }).click();
  const port = serial.getByTestId('serial-port');
  await expect(port.getByText('USB 2341:0043')).toBeVisible();
  await expect(port.getByText('Arduino')).toBeVisible();
  await expect(port.getByText('Disconnected')).toBeVisible();
  await expect(port.getByRole('button', { name: 'Send Test Data' })).toBeDisabled();

  await port.getByLabel('Baud rate').selectOption('115200');
  await port.getByRole('button', { name: 'Connect' }).click();
  await expect(port.getByText('Connected', { exact: true })).toBeVisible();
  await expect(serial.getByText('Connected: 1/1')).toBeVisible();
  await expect(port.getByText('250 Hz')).toBeVisible();
  await expect
    .poll(async () => Number(await port.getByTestId('serial-samples').textContent()), { timeout: 10_000 })
    .toBeGreaterThan(1500);
  // The garbled lines were counted and skipped.
  await expect(port.getByRole('img', { name: 'Live signal from USB 2341:0043' })).toBeVisible();
  await port.getByRole('button', { name: 'Send Test Data' }).click();
  await expect(port.getByText('Sending test data to USB 2341:0043...')).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __serialWritten: string[] }).__serialWritten))
    .toEqual(['# cardio test\n']);
  const log = page.getByRole('region', { name: 'Connection Log' });
  await expect(log.getByText('USB 2341:0043 connected at 115200 baud')).toBeVisible();
  await expect(log.getByText('Test data sent to USB 2341:0043')).toBeVisible();
  await page.screenshot({ path: join(OUT, 'light-devices-serial.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  // Let the colour transitions finish before the picture.
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(OUT, 'dark-devices-serial.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });

  // The port stays open while the doctor goes to the screening's ECG step.
  await navigateInApp(page, `/sensor-ecg?screening=${screeningId}`);
  await expect(page.getByText('Upload an ECG file, or record one from a serial ECG front end')).toBeVisible();
  const source = page.getByRole('region', { name: 'Record from a device' });
  await expect(source.getByText('250 Hz, declared by the device')).toBeVisible();
  await source.getByRole('button', { name: 'Record from device' }).click();
  await expect(source.getByRole('img', { name: 'Live signal from USB 2341:0043' })).toBeVisible();
  // 4 s of wall time is 16 s of signal at the declared rate.
  await expect(source.getByText(/Recording from USB 2341:0043: .* s, \d+ samples/)).toBeVisible();
  await page.waitForTimeout(4_000);
  await page.screenshot({ path: join(OUT, 'light-workflow-ecg-serial.png'), fullPage: true });
  await source.getByRole('button', { name: 'Stop' }).click();
  await expect(source.getByText(/samples \(.* s\) recorded from USB 2341:0043/)).toBeVisible();
  await expect(page.getByText('ecg-serial.csv')).toBeVisible();

  await page.getByRole('button', { name: 'Analyze ECG Data' }).click();
  const combined = page.getByRole('region', { name: 'Combined screening result' });
  await expect(combined).toBeVisible({ timeout: 20_000 });
  await expect(combined.getByRole('row').nth(4)).toContainText('ECGPerformed');
  const analyses = await (await context.request.get(`/api/analyses?screening_id=${screeningId}`)).json();
  const ecg = analyses.find((a: { modality: string }) => a.modality === 'ecg');
  expect(ecg.fileName).toBe('ecg-serial.csv');
  expect(ecg.result.details.sampling_rate_hz).toBe(250);
  await context.close();
});

test('a network device registered on the Devices page pushes a recording with its token', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await createAccount(context.request, { name: 'Lena Fischer', email: uniqueEmail('network') });
  const { screeningId } = await createPatientWithScreening(context.request, { firstName: 'Mara', lastName: 'Lind' });

  await page.goto('/devices');
  const network = page.getByRole('region', { name: 'Network Devices' });
  await expect(network.getByText('No network devices found')).toBeVisible();
  await network.getByRole('button', { name: 'Register device' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Bedside ECG');
  await dialog.getByLabel('Type').selectOption('ECG');
  await dialog.getByRole('button', { name: 'Register' }).click();
  const token = (await page.getByTestId('device-token').textContent()) ?? '';
  expect(token).toMatch(/^cdv_/);
  await page.screenshot({ path: join(OUT, 'light-devices-token.png') });
  await page.getByRole('button', { name: 'Done' }).click();
  const device = network.getByTestId('network-device');
  await expect(device.getByText('Offline')).toBeVisible();

  // The device: `cardio device simulate` plays an ECG record with the token.
  const file = join(tmpdir(), `cardio-e2e-device-${process.pid}.csv`);
  writeFileSync(file, ecgCsv(20));
  const printed = execFileSync(CARDIO, [
    'device',
    'simulate',
    '--type',
    'ecg',
    '--file',
    file,
    '--url',
    baseURL ?? '',
    '--token',
    token,
  ]).toString();
  expect(JSON.parse(printed)).toMatchObject({ device: 'Bedside ECG', type: 'ecg' });
  // A wrong token is refused.
  expect(() =>
    execFileSync(
      CARDIO,
      ['device', 'simulate', '--type', 'ecg', '--file', file, '--url', baseURL ?? '', '--token', 'cdv_x'],
      {
        stdio: 'pipe',
      },
    ),
  ).toThrow(/Invalid or revoked device token/);

  await network.getByRole('button', { name: 'Refresh' }).click();
  await expect(device.getByText('Online')).toBeVisible();
  const log = page.getByRole('region', { name: 'Connection Log' });
  await expect(log.getByText(/^Recording received from Bedside ECG: /)).toBeVisible({ timeout: 15_000 });
  await expect(log.getByText('Bedside ECG is online')).toBeVisible();
  const inbox = page.getByRole('region', { name: 'Received recordings' });
  await expect(inbox.getByTestId('inbox-recording')).toHaveCount(1);
  await expect(inbox.getByTestId('inbox-recording')).toContainText('Bedside ECG');
  await expect(inbox.getByTestId('inbox-recording')).toContainText('Not attached');
  await device.getByRole('button', { name: 'Test' }).click();
  await expect(page.getByRole('dialog').getByText(/^Last recording: cardio-e2e-device-/)).toBeVisible();
  await page.screenshot({ path: join(OUT, 'light-devices-test.png'), fullPage: true });
  await page.keyboard.press('Escape');
  await page.screenshot({ path: join(OUT, 'light-devices-network.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(OUT, 'dark-devices-network.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });

  // The pushed recording is used in a screening's ECG step.
  await page.goto(`/sensor-ecg?screening=${screeningId}`);
  const choice = page.getByTestId('inbox-choice');
  await expect(choice).toContainText('Bedside ECG');
  await choice.getByRole('button', { name: 'Use this recording' }).click();
  await expect(page.getByText('The ECG recording received from a network device is attached')).toBeVisible();
  await page.getByRole('button', { name: 'Analyze ECG Data' }).click();
  const combined = page.getByRole('region', { name: 'Combined screening result' });
  await expect(combined).toBeVisible({ timeout: 20_000 });
  await expect(combined.getByRole('row').nth(4)).toContainText('ECGPerformed');
  await page.goto('/devices');
  await expect(page.getByRole('region', { name: 'Received recordings' }).getByText('Mara Lind')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Connection Log' }).getByText(/attached to a screening/)).toBeVisible();
  await context.close();
});
