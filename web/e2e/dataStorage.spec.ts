import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { administratorEmail, createAccount, signIn, uniqueEmail } from './helpers';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

async function shot(page: Page, name: string) {
  mkdirSync(OUT, { recursive: true });
  await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
}

const MANAGED =
  'These server-wide settings (data encryption, automatic backups, storage) are managed by your Cardio administrator.';

test('data & storage: the administrator saves encryption and auto backup on the server, makes a backup and lists it', async ({
  page,
}) => {
  // Server-wide settings are the administrator's: the fresh server's first account (e2e/globalSetup.ts).
  await signIn(page.request, administratorEmail());
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

test('data & storage: another doctor is told who manages them, and the server refuses them', async ({ page }) => {
  const { isAdmin } = await createAccount(page.request, { name: 'Mary Breckinridge', email: uniqueEmail('not-admin') });
  expect(isAdmin).toBe(false);
  await page.goto('/settings');
  const section = page.locator('section', { has: page.getByRole('heading', { name: 'Data & Storage' }) });
  await expect(section.getByText(MANAGED)).toBeVisible();
  // The doctor's own settings stay; the server-wide switches and backups are not offered.
  await expect(page.getByRole('switch', { name: 'Test Results' })).toBeVisible();
  await expect(page.getByLabel('Session Timeout')).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Data Encryption' })).toHaveCount(0);
  await expect(page.getByRole('switch', { name: 'Auto Backup' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Back up now' })).toHaveCount(0);

  const refused =
    'Only an administrator can see or change server-wide settings (data encryption, backups and storage).';
  for (const response of [
    await page.request.get('/api/system/data-settings'),
    await page.request.put('/api/system/data-settings', { data: { encrypt_blobs: false, auto_backup: false } }),
    await page.request.get('/api/system/backups'),
    await page.request.post('/api/system/backups'),
    await page.request.get('/api/system/storage'),
  ]) {
    expect(response.status(), response.url()).toBe(403);
    expect(((await response.json()) as { detail: string }).detail).toBe(refused);
  }
  await shot(page, 'light-settings-not-admin');
});
