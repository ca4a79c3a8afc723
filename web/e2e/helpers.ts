import type { APIRequestContext } from '@playwright/test';

const RUN = Date.now().toString(36);
let counter = 0;

/** An email address no other test (or earlier run) has used. */
export function uniqueEmail(tag: string): string {
  counter += 1;
  return `e2e-${tag}-${RUN}-${counter}@example.com`;
}

export const PASSWORD = 'correct-horse-1';

/** Creates an account through the API (the request context keeps the session cookie). */
export async function createAccount(
  request: APIRequestContext,
  account: { name: string; email: string; role?: 'doctor' | 'user'; password?: string },
): Promise<void> {
  const response = await request.post('/api/auth/signup', {
    data: {
      full_name: account.name,
      email: account.email,
      password: account.password ?? PASSWORD,
      role: account.role ?? 'doctor',
    },
  });
  if (response.status() !== 201) {
    throw new Error(`signup failed: ${response.status()} ${await response.text()}`);
  }
}
