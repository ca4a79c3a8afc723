import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { createAccount, uniqueEmail } from './helpers';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

test('"Forgot password?" asks for a link and answers the same for any address; a bad link is refused', async ({
  page,
  playwright,
  baseURL,
}) => {
  mkdirSync(OUT, { recursive: true });
  const email = uniqueEmail('reset');
  const api = await playwright.request.newContext({ baseURL });
  await createAccount(api, { name: 'Frances Allen', email });
  await api.dispose();

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  const sent = page.getByRole('status');
  await expect(sent).toContainText('If an account exists for that email');
  await page.screenshot({ path: join(OUT, 'light-forgot-password.png'), fullPage: true });

  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(uniqueEmail('nobody'));
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toContainText('If an account exists for that email');

  await page.goto('/reset-password?token=0123456789abcdef01234567.not-the-secret');
  await page.getByLabel('New password', { exact: true }).fill('new-secret-1');
  await page.getByLabel('Confirm new password').fill('new-secret-1');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('alert')).toHaveText('This link is invalid or has expired.');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(OUT, 'dark-reset-password.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
});
