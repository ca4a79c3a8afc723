/**
 * The signed-in user, provided by the route guard (src/app) to every page behind it, so that features
 * can read it without importing the auth feature.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { User } from '../api/client';

const CurrentUserContext = createContext<User | null>(null);

export function CurrentUserProvider({ user, children }: { user: User; children: ReactNode }) {
  return <CurrentUserContext.Provider value={user}>{children}</CurrentUserContext.Provider>;
}

/** The signed-in user. Only valid on pages behind the guard. */
export function useCurrentUser(): User {
  const user = useContext(CurrentUserContext);
  if (!user) throw new Error('useCurrentUser must be used behind the sign-in guard');
  return user;
}

/** The name to show for a user: the display name, else the email. */
export function displayNameOf(user: Pick<User, 'displayName' | 'email'>): string {
  const name = user.displayName.trim();
  return name !== '' ? name : user.email;
}
