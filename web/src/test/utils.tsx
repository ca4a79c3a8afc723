/**
 * Test helpers: a fake server behind `fetch` and a renderer for the whole route table.
 */
import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { vi } from 'vitest';
import type { User } from '../api/client';
import { AppProviders } from '../app/providers';
import { AppRoutes } from '../app/routes';

export type Handler = (request: Request) => Response | Promise<Response>;

export function json(status: number, body?: unknown): Response {
  if (status === 204 || body === undefined) return new Response(null, { status });
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export const signedOut: Handler = () => json(401, { detail: 'Not authenticated.' });

/**
 * Replaces `fetch` with a router of handlers keyed "METHOD /path". Unknown routes answer 404.
 * Returns the mock, whose calls are the `Request`s sent.
 */
export function mockServer(handlers: Record<string, Handler>) {
  const mock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const url = new URL(request.url);
    const handler = handlers[`${request.method} ${url.pathname}`];
    if (!handler) return json(404, { detail: 'Not found.' });
    return handler(request);
  });
  vi.stubGlobal('fetch', mock);
  return mock;
}

/** The requests the fake server received for one route. */
export function requestsTo(mock: ReturnType<typeof mockServer>, method: string, path: string): Request[] {
  return mock.mock.calls
    .map(([input]) => input)
    .filter((input): input is Request => input instanceof Request)
    .filter((request) => request.method === method && new URL(request.url).pathname === path);
}

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    uid: 'u-1',
    email: 'ada@example.com',
    displayName: 'Ada Lovelace',
    role: 'doctor',
    createdAt: '2025-03-14T09:30:00Z',
    updatedAt: '2025-03-14T09:30:00Z',
    lastLoginAt: null,
    isActive: true,
    emailVerified: false,
    twoFactorEnabled: false,
    isAdmin: false,
    ...overrides,
  };
}

/** Shows the router's current location so tests can assert redirects. */
function LocationProbe() {
  const location = useLocation();
  return (
    <output data-testid="location" hidden>
      {location.pathname + location.search}
    </output>
  );
}

export function renderApp(entry: string | { pathname: string; state?: unknown }) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } },
  });
  const utils = render(
    <AppProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={[entry]}>
        <AppRoutes />
        <LocationProbe />
      </MemoryRouter>
    </AppProviders>,
  );
  return { ...utils, queryClient };
}

/** A promise you resolve by hand, to hold a request "in flight". */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
