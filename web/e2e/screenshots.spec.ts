import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { createAccount, uniqueEmail } from './helpers';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

const VARIANTS = [
  { name: 'light', colorScheme: 'light', locale: 'en-US', text: { signIn: 'Sign In', getStarted: 'Get Started Now' } },
  { name: 'dark', colorScheme: 'dark', locale: 'en-US', text: { signIn: 'Sign In', getStarted: 'Get Started Now' } },
  {
    name: 'es',
    colorScheme: 'light',
    locale: 'es-ES',
    text: { signIn: 'Iniciar sesión', getStarted: 'Empezar ahora' },
  },
] as const;

async function shot(page: Page, variant: string, name: string, fullPage = true) {
  await page.screenshot({ path: join(OUT, `${variant}-${name}.png`), fullPage });
}

for (const variant of VARIANTS) {
  test(`screenshots: ${variant.name}`, async ({ browser, baseURL }) => {
    mkdirSync(OUT, { recursive: true });
    const context = await browser.newContext({
      baseURL,
      colorScheme: variant.colorScheme,
      locale: variant.locale,
      viewport: { width: 1280, height: 800 },
    });
    const page = await context.newPage();

    await page.goto('/');
    await expect(page.getByRole('link', { name: variant.text.getStarted }).first()).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-theme', variant.colorScheme);
    await expect(page.locator('html')).toHaveAttribute('lang', variant.locale.slice(0, 2));
    await shot(page, variant.name, 'welcome');

    await page.goto('/auth');
    await expect(page.getByRole('region')).toHaveCount(2);
    await shot(page, variant.name, 'role-selection');

    await page.goto('/login');
    await page.locator('#login-email').fill(uniqueEmail(`shot-${variant.name}`));
    await page.locator('#login-password').fill('wrong-password');
    await page.getByRole('button', { name: variant.text.signIn }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await shot(page, variant.name, 'login-error');

    await page.goto('/signup');
    await expect(page.locator('#signup-name')).toBeVisible();
    await shot(page, variant.name, 'signup');

    await createAccount(context.request, { name: 'Florence Nightingale', email: uniqueEmail(`home-${variant.name}`) });
    await page.goto('/home');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Florence Nightingale');
    await shot(page, variant.name, 'home');

    await page.goto('/patients');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await shot(page, variant.name, 'patients');

    await page.goto('/profile');
    await expect(page.getByRole('heading', { level: 2 })).toContainText('Florence Nightingale');
    await shot(page, variant.name, 'profile');

    await page.goto('/settings');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await shot(page, variant.name, 'settings');

    await context.close();
  });
}
