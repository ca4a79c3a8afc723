import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { createAccount, createPatientWithScreening, uniqueEmail } from './helpers';
import { ecgCsv } from './signals';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

test('a doctor signs off a result: pending, disagreed with a reason, then superseded; home counts what is left', async ({
  browser,
  baseURL,
}) => {
  mkdirSync(OUT, { recursive: true });
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await createAccount(context.request, { name: 'Paul Wood', email: uniqueEmail('review') });
  const { patientId } = await createPatientWithScreening(context.request, { firstName: 'Elena', lastName: 'Marsh' });
  for (let i = 0; i < 2; i += 1) {
    const response = await context.request.post('/api/predict/ecg/upload', {
      multipart: { file: { name: `ecg-${i}.csv`, mimeType: 'text/csv', buffer: ecgCsv(30) }, patient_id: patientId },
    });
    expect(response.status(), await response.text()).toBe(200);
  }

  await page.goto('/home');
  const pending = page.locator('.stat-card', { hasText: 'Pending Reviews' });
  await expect(pending.locator('.stat-card__value')).toHaveText('2');

  await page.goto('/test-results');
  const card = page.locator('.test-card').first();
  await expect(card).toContainText('Not yet reviewed');
  await card.getByRole('link', { name: 'View Details' }).click();
  const panel = page.locator('section.review');
  await expect(panel.getByText('Not yet reviewed')).toBeVisible();
  await panel.getByRole('radio', { name: 'Disagree' }).check();
  await panel.getByRole('button', { name: 'Sign off' }).click();
  await expect(panel.getByRole('alert')).toHaveText("Say why you disagree with the model's finding in the comment.");
  await panel.getByLabel('Comment: why do you disagree?').fill('Baseline wander; sinus rhythm on review.');
  await panel.getByRole('button', { name: 'Sign off' }).click();
  const current = panel.locator('.review__current');
  await expect(current).toContainText("disagreed with the model's finding");
  await expect(panel.getByText('Baseline wander; sinus rhythm on review.')).toBeVisible();

  // A second sign-off supersedes the first, which stays in the history (the form starts empty again).
  await expect(panel.getByRole('radio', { name: 'Agree', exact: true })).not.toBeChecked();
  await panel.getByRole('radio', { name: 'Agree', exact: true }).check();
  await panel.getByRole('button', { name: 'Sign off again (replaces the current review)' }).click();
  await expect(current).toContainText(": agreed with the model's finding");
  await expect(current).not.toContainText('disagreed');
  await expect(panel.getByText('1 earlier review')).toBeVisible();
  await panel.getByText('1 earlier review').click();
  await expect(panel.getByText('Superseded')).toBeVisible();
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(OUT, 'light-review.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(OUT, 'dark-review.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });

  await page.goto('/home');
  await expect(pending.locator('.stat-card__value')).toHaveText('1');
  await page.goto('/test-results');
  await expect(page.getByText("Reviewed: agreed with the model's finding")).toHaveCount(1);
  await expect(page.getByText('Not yet reviewed')).toHaveCount(1);
  await context.close();
});
