import { expect, test } from '@playwright/test';
import { createAccount, PASSWORD, uniqueEmail } from './helpers';

test('a doctor signs up from the welcome page, stays signed in across a reload and logs out', async ({ page }) => {
  const email = uniqueEmail('doctor');
  await page.goto('/');
  await page.getByRole('link', { name: 'Get Started Now' }).first().click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('heading', { name: 'Healthcare Professional' })).toBeVisible();

  await page.getByRole('link', { name: 'Sign Up as Doctor' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await page.getByLabel('Full Name').fill('Grace Hopper');
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();

  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole('heading', { name: 'Welcome back, Grace Hopper' })).toBeVisible();
  const sidebar = page.getByRole('complementary');
  await expect(sidebar.getByText(email)).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Start Analysis' }),
  ).toBeVisible();

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Welcome back, Grace Hopper' })).toBeVisible();

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/home');
  await expect(page).toHaveURL(/\/login$/);
});

test('a protected page sends a signed-out visitor to login and back after signing in', async ({
  page,
  playwright,
  baseURL,
}) => {
  const email = uniqueEmail('return');
  const api = await playwright.request.newContext({ baseURL });
  await createAccount(api, { name: 'Katherine Johnson', email });
  await api.dispose();

  await page.goto('/patients');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();

  await expect(page).toHaveURL(/\/patients$/);
  await expect(page.getByRole('heading', { name: 'Patients', level: 1 })).toBeVisible();
  await expect(page.getByText('No patients yet. Add your first patient!')).toBeVisible();
});

test('a wrong password shows the red banner', async ({ page, playwright, baseURL }) => {
  const email = uniqueEmail('wrong');
  const api = await playwright.request.newContext({ baseURL });
  await createAccount(api, { name: 'Dorothy Vaughan', email });
  await api.dispose();

  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign In' }).click();

  const banner = page.getByRole('alert');
  await expect(banner).toHaveText('Invalid email or password. Please try again.');
  await expect(banner).toHaveCSS('background-color', 'rgb(253, 236, 236)');
  await expect(page).toHaveURL(/\/login$/);
});

test('signing up as a user saves the user role', async ({ page }) => {
  const email = uniqueEmail('user');
  await page.goto('/auth');
  await page.getByRole('link', { name: 'Sign Up as User' }).click();
  await expect(page.getByText('Patient / User')).toBeVisible();
  await page.getByLabel('Full Name').fill('Mary Jackson');
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/home$/);

  const me = await page.request.get('/api/auth/me');
  expect(me.status()).toBe(200);
  expect((await me.json()).role).toBe('user');

  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByText('Patient', { exact: true })).toBeVisible();
});

test('the signup form checks the passwords before calling the server', async ({ page }) => {
  await page.goto('/signup');
  await page.getByLabel('Full Name').fill('Test Person');
  await page.getByLabel('Email Address').fill(uniqueEmail('check'));
  await page.getByLabel('Password', { exact: true }).fill('abc');
  await page.getByLabel('Confirm Password').fill('abcd');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('alert')).toHaveText('Passwords do not match');
  await page.getByLabel('Confirm Password').fill('abc');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('alert')).toHaveText('Password must be at least 6 characters');
});
