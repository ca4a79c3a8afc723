import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { createAccount, PASSWORD, uniqueEmail } from './helpers';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

async function shot(page: Page, name: string) {
  mkdirSync(OUT, { recursive: true });
  await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
}

/** Waits for the settings save that `action` triggers to be answered 200. */
async function saved(page: Page, action: () => Promise<unknown>) {
  const response = page.waitForResponse((r) => r.url().endsWith('/api/settings') && r.request().method() === 'PUT');
  await action();
  expect((await response).status()).toBe(200);
}

test('profile and settings: a new name in the sidebar, theme and language saved to the account', async ({
  page,
  browser,
  baseURL,
}) => {
  const email = uniqueEmail('prefs');
  await createAccount(page.request, { name: 'Mary Seacole', email });
  const html = page.locator('html');
  const main = page.getByRole('main');
  const sidebar = page.getByRole('complementary');

  // Profile: the account's own figures, no verified badge, and a new display name everywhere.
  await page.goto('/profile');
  await expect(main.getByRole('heading', { name: 'Mary Seacole', level: 2 })).toBeVisible();
  await expect(main.getByText('Healthcare Professional')).toBeVisible();
  await expect(main.getByText('Verified Account')).toHaveCount(0);
  await expect(main.locator('.stat-card__value')).toHaveText(['0', '0', '0', '0']);
  await main.getByRole('button', { name: 'Edit Profile' }).click();
  await main.getByLabel('Display name').fill('Dr. Mary Seacole');
  await shot(page, 'light-profile-account');
  await main.getByRole('button', { name: 'Save' }).click();
  await expect(main.getByRole('heading', { name: 'Dr. Mary Seacole', level: 2 })).toBeVisible();
  await expect(sidebar.getByText('Dr. Mary Seacole')).toBeVisible();

  // Settings: the spec's defaults, then dark and Spanish at once.
  await page.goto('/settings');
  await expect(html).toHaveAttribute('data-theme', 'light');
  await expect(main.getByRole('switch', { name: 'Test Results' })).toBeChecked();
  await expect(main.getByRole('switch', { name: 'Device Alerts' })).toBeChecked();
  await expect(main.getByRole('switch', { name: 'Patient Updates' })).not.toBeChecked();
  await expect(main.getByLabel('Session Timeout')).toHaveValue('30m');
  await shot(page, 'light-settings-account');

  await saved(page, () => main.getByLabel('Theme').selectOption('dark'));
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await saved(page, () => main.getByRole('switch', { name: 'Patient Updates' }).click());
  await shot(page, 'dark-settings-account');
  await page.goto('/profile');
  await expect(main.getByRole('heading', { name: 'Dr. Mary Seacole', level: 2 })).toBeVisible();
  await shot(page, 'dark-profile-account');

  await page.goto('/settings');
  await saved(page, () => main.getByLabel('Language').selectOption('es'));
  await expect(main.getByRole('heading', { name: 'Configuración', level: 1 })).toBeVisible();
  await expect(sidebar.getByRole('link', { name: 'Pacientes' })).toBeVisible();
  await expect(html).toHaveAttribute('lang', 'es');

  await page.reload();
  await expect(main.getByRole('heading', { name: 'Configuración', level: 1 })).toBeVisible();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await expect(main.getByRole('switch', { name: 'Actualizaciones de pacientes' })).toBeChecked();

  // Another browser (nothing in its storage): signing in brings the account's theme and language.
  const other = await browser.newContext({ baseURL, colorScheme: 'light', locale: 'en-US' });
  const second = await other.newPage();
  await second.goto('/login');
  await second.locator('#login-email').fill(email);
  await second.locator('#login-password').fill(PASSWORD);
  await second.getByRole('button', { name: 'Sign In' }).click();
  await expect(second.getByRole('complementary').getByRole('link', { name: 'Pacientes' })).toBeVisible();
  await expect(second.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(second.locator('html')).toHaveAttribute('lang', 'es');
  await expect(second.getByRole('complementary').getByText('Dr. Mary Seacole')).toBeVisible();
  await other.close();
});
