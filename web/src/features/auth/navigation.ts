import type { Location } from 'react-router';
import type { Role } from '../../api/client';

/** What the auth pages receive as navigation state. */
export interface AuthNavigationState {
  /** The protected page the guard sent us away from. */
  from?: Pick<Location, 'pathname' | 'search' | 'hash'>;
  /** The role chosen on the role-selection page. */
  role?: Role;
}

export function readAuthState(state: unknown): AuthNavigationState {
  if (!state || typeof state !== 'object') return {};
  const record = state as Record<string, unknown>;
  const result: AuthNavigationState = {};
  const role = record.role;
  if (role === 'doctor' || role === 'user') result.role = role;
  const from = record.from;
  if (from && typeof from === 'object') {
    const location = from as Record<string, unknown>;
    if (typeof location.pathname === 'string' && location.pathname.startsWith('/')) {
      result.from = {
        pathname: location.pathname,
        search: typeof location.search === 'string' ? location.search : '',
        hash: typeof location.hash === 'string' ? location.hash : '',
      };
    }
  }
  return result;
}

/** Where to go after signing in: back to the page the guard remembered, else `fallback`. */
export function returnPath(state: AuthNavigationState, fallback: string): string {
  const from = state.from;
  if (!from) return fallback;
  return `${from.pathname}${from.search}${from.hash}`;
}
