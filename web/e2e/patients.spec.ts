import { expect, test, type Page } from '@playwright/test';
import { createAccount, PASSWORD, uniqueEmail, uniquePhone, uniqueSurname } from './helpers';

async function signUpDoctor(page: Page, name: string): Promise<void> {
  await page.goto('/signup');
  await page.getByLabel('Full Name').fill(name);
  await page.getByLabel('Email Address').fill(uniqueEmail('patients'));
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/home$/);
}

test('a doctor adds a patient, finds it, runs diagnostics and continues after a reload; another doctor sees nothing', async ({
  page,
  browser,
  baseURL,
}) => {
  const lastName = uniqueSurname();
  const fullName = `Ana ${lastName}`;
  const phone = uniquePhone();
  await signUpDoctor(page, 'Virginia Apgar');

  // Intake: client validation, then the server's own check, then success.
  await page.goto('/intake');
  await page.locator('#intake-firstName').fill('Ana');
  await page.locator('#intake-lastName').fill(lastName);
  await page.locator('#intake-dateOfBirth').fill('2999-01-01');
  await page.locator('#intake-gender').selectOption('female');
  await page.locator('#intake-phone').fill(phone);
  await page.getByRole('button', { name: 'Continue to Clinical Data' }).click();
  await expect(page.getByText('Date of birth cannot be in the future.')).toBeVisible();
  await expect(page.locator('#intake-dateOfBirth')).toBeFocused();

  await page.locator('#intake-dateOfBirth').fill('1975-03-09');
  await page.locator('#intake-email').fill('ana@-bad.example');
  await page.getByRole('button', { name: 'Continue to Clinical Data' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid email address.');
  await expect(page.locator('#intake-firstName')).toHaveValue('Ana');

  await page.locator('#intake-email').fill('ana@example.com');
  await page.locator('#intake-city').fill('Lyon');
  await page.getByRole('button', { name: 'Continue to Clinical Data' }).click();
  await expect(page.getByText('Patient Added Successfully!')).toBeVisible();
  await expect(page.getByText('Redirecting to clinical data collection...')).toBeVisible();
  await expect(page).toHaveURL(/\/clinical-data\?screening=[\w-]+$/);
  await expect(page.getByText(fullName)).toBeVisible();

  // The list: search by name, then by phone.
  await page.goto('/patients');
  const search = page.getByPlaceholder('Search by name, phone, or email...');
  await search.fill(lastName.toLowerCase());
  await expect(page).toHaveURL(new RegExp(`q=${lastName.toLowerCase()}`));
  await expect(page.getByRole('row')).toHaveCount(2);
  await expect(page.getByRole('row').nth(1)).toContainText(fullName);
  await expect(page.getByRole('row').nth(1)).toContainText('Active');
  await search.fill(phone);
  await expect(page.getByRole('row').nth(1)).toContainText(fullName);
  await search.fill('no-such-patient-anywhere');
  await expect(page.getByText('No patients found matching your search')).toBeVisible();
  await search.fill(lastName);

  // Detail page, then Run Diagnostics from it.
  await page.getByRole('link', { name: `View details of ${fullName}` }).click();
  await expect(page).toHaveURL(/\/patients\/[\w-]+$/);
  const patientUrl = page.url();
  await expect(page.getByRole('heading', { name: fullName, level: 1 })).toBeVisible();
  await expect(page.getByText('Lyon')).toBeVisible();
  await page.getByRole('button', { name: 'Run Diagnostics' }).click();
  await expect(page).toHaveURL(/\/clinical-data\?screening=[\w-]+$/);
  const screeningId = new URL(page.url()).searchParams.get('screening') ?? '';
  expect(screeningId).not.toBe('');

  // Clinical data, saved on the server, then the PCG step with the screening in the URL.
  await expect(page.getByText(fullName)).toBeVisible();
  await page.getByLabel('Age', { exact: true }).fill('51');
  await page.getByLabel('Chest Pain Type').selectOption({ label: 'Non-anginal Pain' });
  await page.getByLabel('Cholesterol (mg/dl)').fill('230');
  await page.getByLabel('Fasting Blood Sugar (mg/dl)').fill('101');
  await page.getByLabel('Exercise Induced Angina').selectOption({ label: 'Yes' });
  await page.getByLabel('Vessels Colored by Fluoroscopy').selectOption('1');
  await page.getByLabel('Thalassemia').selectOption({ label: 'Fixed Defect' });
  await page.getByText('More clinical values (optional)').click();
  await page.getByLabel('ST Depression, Exercise vs Rest (mm)').fill('1.4');
  await page.getByLabel('Slope of Peak Exercise ST Segment').selectOption({ label: 'Flat' });
  await page.getByRole('button', { name: 'Continue to PCG Sensor' }).click();
  await expect(page.getByText('Clinical Data Saved!')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/sensor-pcg\\?screening=${screeningId}$`));
  await expect(page.getByText(fullName)).toBeVisible();

  await page.reload();
  await expect(page.getByText(fullName)).toBeVisible();
  await expect(page.locator('.upload-step__status dd')).toHaveText('Ready');
  await expect(page.getByRole('button', { name: 'Continue to PPG' })).toBeDisabled();

  // The detail page now shows the clinical history with readable labels.
  await page.goto(patientUrl);
  const history = page.getByRole('table', { name: 'Clinical parameters, newest first' });
  await expect(history).toContainText('Non-anginal Pain');
  await expect(history).toContainText('Fixed Defect');
  await expect(history).toContainText(
    'ST Depression, Exercise vs Rest (mm): 1.4; Slope of Peak Exercise ST Segment: Flat',
  );

  // A second doctor sees none of it.
  const other = await browser.newContext({ baseURL });
  await createAccount(other.request, { name: 'Helen Taussig', email: uniqueEmail('other') });
  const otherPage = await other.newPage();
  await otherPage.goto('/patients');
  await expect(otherPage.getByText('No patients yet. Add your first patient!')).toBeVisible();
  await otherPage.getByPlaceholder('Search by name, phone, or email...').fill(lastName);
  await expect(otherPage.getByText('No patients found matching your search')).toBeVisible();
  await otherPage.goto(new URL(patientUrl).pathname);
  await expect(otherPage.getByRole('heading', { name: 'Patient not found.', level: 1 })).toBeVisible();
  await otherPage.goto(`/clinical-data?screening=${screeningId}`);
  await expect(otherPage.getByText('No Patient Data Found')).toBeVisible();
  await otherPage.goto(`/sensor-pcg?screening=${screeningId}`);
  await expect(otherPage.getByText('Session Data Missing')).toBeVisible();
  await expect(otherPage.getByText(fullName)).toHaveCount(0);
  await other.close();
});

test('a user-role account is told that patient records are for professionals', async ({ page }) => {
  await createAccount(page.request, { name: 'Pat Ient', email: uniqueEmail('user-role'), role: 'user' });
  await page.goto('/patients');
  await expect(page.getByText('Only healthcare professionals can access patient records.')).toBeVisible();
  // Every doctor page says the same, rather than a doctor screen that cannot load.
  for (const path of ['/intake', '/reports', '/devices']) {
    await page.goto(path);
    await expect(page.getByText('Only healthcare professionals can access patient records.')).toBeVisible();
  }
  await expect(page.getByText('Reports cannot be loaded right now.')).toHaveCount(0);
  // Settings: their own preferences, without the doctor's notification toggles.
  await page.goto('/settings');
  await expect(page.getByLabel('Session Timeout')).toBeVisible();
  await expect(page.getByRole('switch')).toHaveCount(0);
  // Their home shows what doctors shared with them instead of doctor figures.
  await page.goto('/home');
  await expect(page.getByRole('heading', { name: 'My results' })).toBeVisible();
  await expect(page.getByText('No shared results yet')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Patients' })).toHaveCount(0);
});
