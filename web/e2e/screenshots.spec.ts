import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { createAccount, createPatientWithScreening, uniqueEmail } from './helpers';
import { pulseCsv } from './signals';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

const VARIANTS = [
  {
    name: 'light',
    colorScheme: 'light',
    locale: 'en-US',
    text: {
      signIn: 'Sign In',
      getStarted: 'Get Started Now',
      edit: 'Edit',
      analyze: 'Analyze',
      clinical: 'Clinical Data',
    },
  },
  {
    name: 'dark',
    colorScheme: 'dark',
    locale: 'en-US',
    text: {
      signIn: 'Sign In',
      getStarted: 'Get Started Now',
      edit: 'Edit',
      analyze: 'Analyze',
      clinical: 'Clinical Data',
    },
  },
  {
    name: 'es',
    colorScheme: 'light',
    locale: 'es-ES',
    text: {
      signIn: 'Iniciar sesión',
      getStarted: 'Empezar ahora',
      edit: 'Editar',
      analyze: 'Analizar',
      clinical: 'Datos clínicos',
    },
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
    await page.goto('/patients');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('.empty-state')).toBeVisible();
    await shot(page, variant.name, 'patients-empty');

    await page.goto('/intake');
    await page.locator('#intake-firstName').fill('María');
    await page.locator('#intake-dateOfBirth').fill('2999-01-01');
    await page.locator('#intake-email').fill('not-an-email');
    await page.locator('form button[type="submit"]').click();
    await expect(page.locator('.field__error').first()).toBeVisible();
    await shot(page, variant.name, 'intake-validation');

    const { patientId, screeningId } = await createPatientWithScreening(context.request, {
      firstName: 'María',
      lastName: 'López',
    });
    await createPatientWithScreening(context.request, {
      firstName: 'Jean',
      lastName: 'Dupont',
      phone: '555 0101',
      gender: 'male',
    });

    await page.goto('/home');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Florence Nightingale');
    await expect(page.locator('.stat-card__value').first()).toHaveText('2');
    await expect(page.locator('.activity-list li').first()).toBeVisible();
    await shot(page, variant.name, 'home');

    // The clinical model modal, then its results from the real model.
    await page.getByRole('button', { name: new RegExp(`^${variant.text.clinical}`) }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await shot(page, variant.name, 'model-clinical', false);
    await dialog.getByRole('button', { name: variant.text.analyze, exact: true }).click();
    await expect(page.locator('.result__condition')).toBeVisible();
    await shot(page, variant.name, 'model-results', false);
    await page.locator('.result__factors').scrollIntoViewIfNeeded();
    await expect(page.locator('.result__factors li').first()).toBeVisible();
    await shot(page, variant.name, 'model-factors', false);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);

    await page.goto('/patients');
    await expect(page.getByRole('row')).toHaveCount(3);
    await shot(page, variant.name, 'patients');

    await page.goto(`/patients/${patientId}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('María López');
    await expect(page.locator('table').first()).toBeVisible();
    await expect(page.locator('table')).toHaveCount(2);
    await shot(page, variant.name, 'patient-detail');

    await page.getByRole('button', { name: variant.text.edit }).click();
    await page.locator('#edit-phone').fill('');
    // The edit form's own submit (the page also has the share card's invite form).
    await page
      .locator('form', { has: page.locator('#edit-phone') })
      .locator('button[type="submit"]')
      .click();
    await expect(page.locator('.field__error').first()).toBeVisible();
    await shot(page, variant.name, 'patient-edit');

    await page.goto(`/clinical-data?screening=${screeningId}`);
    await expect(page.locator('.patient-card__name')).toHaveText('María López');
    await shot(page, variant.name, 'clinical-data');
    // "More clinical values (optional)" opened from the keyboard.
    await page.locator('.form-more__summary').focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('.form-more')).toHaveAttribute('open', '');
    await shot(page, variant.name, 'clinical-data-more');

    await page.goto(`/sensor-pcg?screening=${screeningId}`);
    await expect(page.locator('.patient-card__name')).toHaveText('María López');
    await shot(page, variant.name, 'sensor-pcg');

    await page.goto(`/sensor-ecg?screening=${screeningId}`);
    await expect(page.locator('.step-progress__item--done')).toHaveCount(3);
    await shot(page, variant.name, 'sensor-ecg', false);

    const pulse = await context.request.post('/api/predict/ppg/upload', {
      multipart: { file: { name: 'pulse.csv', mimeType: 'text/csv', buffer: pulseCsv(30) }, patient_id: patientId },
    });
    expect(pulse.ok()).toBe(true);
    await page.goto('/test-results');
    await expect(page.locator('.test-card__title').first()).toBeVisible();
    await shot(page, variant.name, 'test-results', false);

    await page.goto('/patients');
    await expect(page.locator('.last-result').first()).toBeVisible();
    await shot(page, variant.name, 'patients-last-result', false);

    await page.goto('/profile');
    await expect(page.locator('#profile-name')).toHaveText('Florence Nightingale');
    await shot(page, variant.name, 'profile');

    await page.goto('/settings');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await shot(page, variant.name, 'settings');

    await context.close();
  });
}
