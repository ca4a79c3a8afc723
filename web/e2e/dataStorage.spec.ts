import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { createAccount, uniqueEmail } from './helpers';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

async function shot(page: Page, name: string) {
  mkdirSync(OUT, { recursive: true });
  await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
}

test('data & storage: encryption and auto backup saved on the server, a backup made and listed', async ({ page }) => {
  await createAccount(page.request, { name: 'Florence Nightingale', email: uniqueEmail('storage') });
  await page.goto('/settings');
  const section = page.locator('section', { has: page.getByRole('heading', { name: 'Data & Storage' }) });
  // Data Encryption is under Privacy & Security, as in the spec.
  const security = page.locator('section', { has: page.getByRole('heading', { name: 'Privacy & Security' }) });
  const encryption = security.getByRole('switch', { name: 'Data Encryption' });
  const autoBackup = section.getByRole('switch', { name: 'Auto Backup' });
  await expect(encryption).toBeChecked();
  await expect(autoBackup).toBeChecked();
  await expect(section.getByText('No backup yet.')).toBeVisible();

  // Data Encryption off, saved on the server (still off after a reload), then on again.
  const put = () =>
    page.waitForResponse((r) => r.url().endsWith('/api/system/data-settings') && r.request().method() === 'PUT');
  let saved = put();
  await encryption.click();
  expect((await saved).status()).toBe(200);
  await page.reload();
  await expect(encryption).not.toBeChecked();
  await expect(autoBackup).toBeChecked();
  saved = put();
  await encryption.press('Space');
  expect((await saved).status()).toBe(200);
  await expect(encryption).toBeChecked();

  // Back up now, then Manage (from the keyboard) lists it with its size.
  const made = page.waitForResponse((r) => r.url().endsWith('/api/system/backups') && r.request().method() === 'POST');
  await section.getByRole('button', { name: 'Back up now' }).click();
  expect((await made).status()).toBe(201);
  await expect(section.getByText(/^Last backup: /)).toBeVisible();
  const manage = section.getByRole('button', { name: 'Manage' });
  await manage.focus();
  await page.keyboard.press('Enter');
  await expect(manage).toHaveAttribute('aria-expanded', 'true');
  const rows = section.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText(/\d+(\.\d)? (KB|MB)/);
  await expect(rows.nth(1)).toContainText('0 patients, 0 analyses, 0 files');
  await section.scrollIntoViewIfNeeded();
  await shot(page, 'light-settings-data-storage');

  await page.getByRole('main').getByLabel('Theme').selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await shot(page, 'dark-settings-data-storage');
});
