import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { createAccount, PASSWORD, uniqueEmail } from './helpers';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

/** The path and query of the newest `kind` link sent to `email`, read from the server's outbox. */
async function linkFromOutbox(email: string, kind: 'reset-password' | 'verify-email'): Promise<string> {
  const outbox = join(process.env.E2E_DATA_DIR ?? '', 'outbox');
  let link: string | undefined;
  await expect
    .poll(() => {
      const texts = readdirSync(outbox)
        .sort()
        .map((name) => readFileSync(join(outbox, name), 'utf8'))
        .filter((text) => text.includes(`To: ${email}`));
      link = texts
        .at(-1)
        ?.split(/\s+/)
        .find((word) => word.includes(`/${kind}?token=`));
      return link;
    })
    .toBeTruthy();
  const url = new URL(link ?? '');
  return `${url.pathname}${url.search}`;
}

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

test('a forgotten password is reset from the e-mailed link, once, and the new one signs in', async ({
  page,
  playwright,
  baseURL,
}) => {
  const email = uniqueEmail('reset-link');
  const api = await playwright.request.newContext({ baseURL });
  await createAccount(api, { name: 'Barbara Liskov', email });
  await api.dispose();

  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toContainText('If an account exists for that email');
  const link = await linkFromOutbox(email, 'reset-password');

  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill('brand-new-pass');
  await page.getByLabel('Confirm new password').fill('brand-new-pass');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('status')).toContainText('Your password has been changed.');
  await page.screenshot({ path: join(OUT, 'light-reset-password-done.png'), fullPage: true });

  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill('another-pass');
  await page.getByLabel('Confirm new password').fill('another-pass');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('alert')).toHaveText('This link is invalid or has expired.');

  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password. Please try again.');
  await page.getByLabel('Password').fill('brand-new-pass');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/home$/);
});

test('the profile sends a verification link; following it shows "Verified Account"', async ({ page }) => {
  const email = uniqueEmail('verify');
  await createAccount(page.request, { name: 'Shafi Goldwasser', email });

  await page.goto('/profile');
  await expect(page.getByText('Email not verified')).toBeVisible();
  await expect(page.getByText('Verified Account')).toHaveCount(0);
  await page.getByRole('button', { name: 'Verify email' }).click();
  await expect(page.getByRole('status')).toContainText(`We sent a verification link to ${email}`);
  await page.screenshot({ path: join(OUT, 'light-profile-verification-sent.png'), fullPage: true });

  await page.goto(await linkFromOutbox(email, 'verify-email'));
  await expect(page.getByText('Your email address is verified.')).toBeVisible();
  await page.getByRole('link', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByText('Verified Account')).toBeVisible();
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(OUT, 'dark-profile-verified.png') });
  await page.emulateMedia({ colorScheme: 'light' });
});
