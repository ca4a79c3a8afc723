import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { createAccount, PASSWORD, uniqueEmail } from './helpers';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

/** An authenticator app (the maintained `otpauth` package) set up from the manual key on the page. */
function authenticator(manualKey: string, email: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: 'Cardio',
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: OTPAuth.Secret.fromBase32(manualKey),
  });
}

test('a doctor turns on two-factor sign-in from the profile and signs in with a code', async ({ page }) => {
  mkdirSync(OUT, { recursive: true });
  const email = uniqueEmail('totp');
  await createAccount(page.request, { name: 'Radia Perlman', email });

  await page.goto('/profile');
  await expect(page.getByTestId('two-factor-state')).toHaveText('Off');
  await page.getByRole('button', { name: 'Enable' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const manualKey = (await page.getByTestId('totp-manual-key').textContent())?.replace(/\s/g, '') ?? '';
  expect(manualKey).toMatch(/^[A-Z2-7]{32}$/);
  const app = authenticator(manualKey, email);

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(OUT, 'dark-totp-enrol.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: join(OUT, 'light-totp-enrol.png'), fullPage: true });

  await page.getByLabel('Authentication code').fill(app.generate());
  await page.getByRole('button', { name: 'Confirm' }).click();
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  await expect(page.getByTestId('two-factor-state')).toHaveText('On');
  await page.screenshot({ path: join(OUT, 'light-totp-recovery-codes.png'), fullPage: true });
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('button', { name: 'Disable' })).toBeVisible();

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();

  const codeField = page.getByLabel('Authentication code');
  await expect(codeField).toBeVisible();
  await expect(page.getByRole('button', { name: 'Use a recovery code' })).toBeVisible();
  expect((await page.request.get('/api/auth/me')).status()).toBe(401);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(OUT, 'dark-totp-sign-in.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: join(OUT, 'light-totp-sign-in.png'), fullPage: true });

  // The enrolment used this period's code, which the server will not take twice: the app's next
  // code is within the accepted window.
  await codeField.fill(app.generate({ timestamp: Date.now() + 30_000 }));
  await page.getByRole('button', { name: 'Verify' }).click();

  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole('heading', { name: 'Welcome back, Radia Perlman' })).toBeVisible();
});
