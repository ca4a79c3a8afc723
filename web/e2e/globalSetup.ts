import { request, type FullConfig } from '@playwright/test';
import { ADMIN_EMAIL_VARIABLE, createAccount, uniqueEmail } from './helpers';

/**
 * Signs up the installation's administrator before any spec runs. The first account of an installation
 * is its administrator (data encryption, backups, storage), and e2e/run.mjs starts a fresh server, so
 * whichever specs run, in whatever order, this account is the administrator and theirs are not.
 * On a server that already had accounts it is not one: the specs that need it then say so
 * (`administratorEmail()`).
 */
export default async function globalSetup(config: FullConfig): Promise<void> {
  const api = await request.newContext({ baseURL: config.projects[0]?.use.baseURL });
  try {
    const email = uniqueEmail('administrator');
    const { isAdmin } = await createAccount(api, { name: 'Elizabeth Blackwell', email });
    // Read by the workers (they inherit the environment of this process).
    if (isAdmin) process.env[ADMIN_EMAIL_VARIABLE] = email;
  } finally {
    await api.dispose();
  }
}
