import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { ApiError } from '../api/client';
import { queryKeys } from '../api/queryKeys';
import i18n from '../i18n';
import { SerialProvider } from '../lib/serial/SerialProvider';
import { isIdleSignOut, rememberIdleSignOut } from '../lib/signedOut';
import { ThemeProvider } from '../lib/theme';

export function createQueryClient(): QueryClient {
  // The session is gone (idle timeout, password changed elsewhere, signed out in another tab):
  // forget the user, and the guard sends the browser to the sign-in page (which says why when the
  // server ended the session for inactivity).
  const signedOut = (error: unknown) => {
    if (!(error instanceof ApiError && error.status === 401)) return;
    if (isIdleSignOut(error)) rememberIdleSignOut();
    client.setQueryData(queryKeys.me, null);
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: signedOut }),
    mutationCache: new MutationCache({ onError: signedOut }),
    defaultOptions: {
      queries: { refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
  return client;
}

export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <I18nextProvider i18n={i18n}>
      <ThemeProvider>
        <QueryClientProvider client={client}>
          <SerialProvider>{children}</SerialProvider>
        </QueryClientProvider>
      </ThemeProvider>
    </I18nextProvider>
  );
}
