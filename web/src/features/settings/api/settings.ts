/**
 * The signed-in user's settings, saved on the server (`GET/PUT /api/settings`).
 *
 * `useApplyServerSettings` (mounted by the signed-in layout) applies the saved theme and language;
 * `useSaveSettings` saves a change optimistically: the cache and the screen change at once, and
 * both go back if the server refuses.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, unwrap, type Settings } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';
import { changeLanguage, currentLanguage } from '../../../i18n';
import { useTheme } from '../../../lib/theme';

/** What a save changes (any subset of the fields). */
export type SettingsChange = Partial<Omit<Settings, 'updatedAt'>>;

export function fetchSettings(): Promise<Settings> {
  return unwrap(api.GET('/api/settings'));
}

export function saveSettings(settings: Settings): Promise<Settings> {
  const body: Settings = { ...settings };
  delete body.updatedAt;
  return unwrap(api.PUT('/api/settings', { body }));
}

export const settingsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.settings, queryFn: fetchSettings, staleTime: 5 * 60 * 1000, retry: false });

export function useSettings() {
  return useQuery(settingsQueryOptions());
}

/**
 * Applies the saved theme and language once they are loaded (and whenever they change). Settings never
 * saved (`updatedAt: null`) leave the browser's own choice in place.
 */
export function useApplyServerSettings() {
  const { data } = useSettings();
  const { theme, setTheme } = useTheme();
  const savedTheme = data?.updatedAt ? data.theme : null;
  const savedLanguage = data?.updatedAt ? data.language : null;
  useEffect(() => {
    if (savedTheme && savedTheme !== theme) setTheme(savedTheme);
  }, [savedTheme, theme, setTheme]);
  useEffect(() => {
    if (savedLanguage && savedLanguage !== currentLanguage()) void changeLanguage(savedLanguage);
  }, [savedLanguage]);
}

interface SaveContext {
  previous: Settings | undefined;
  applied: { theme: Settings['theme']; language: Settings['language'] };
}

/** Saves a change: applied and cached at once, rolled back (with the error kept) if the server refuses. */
export function useSaveSettings() {
  const queryClient = useQueryClient();
  const { theme, setTheme } = useTheme();

  return useMutation<Settings, Error, SettingsChange, SaveContext>({
    mutationFn: async (change) => {
      const base = await queryClient.ensureQueryData(settingsQueryOptions());
      // What is on screen is what the user sees as "current": send it with the change.
      return saveSettings({ ...base, theme, language: currentLanguage(), ...change });
    },
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.settings });
      const previous = queryClient.getQueryData<Settings>(queryKeys.settings);
      const applied = { theme, language: currentLanguage() };
      if (previous) {
        queryClient.setQueryData<Settings>(queryKeys.settings, {
          ...previous,
          theme,
          language: applied.language,
          ...change,
          updatedAt: new Date().toISOString(),
        });
      }
      if (change.theme) setTheme(change.theme);
      if (change.language) await changeLanguage(change.language);
      return { previous, applied };
    },
    onError: (_error, _change, context) => {
      if (!context) return;
      queryClient.setQueryData(queryKeys.settings, context.previous);
      setTheme(context.applied.theme);
      void changeLanguage(context.applied.language);
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.settings, saved);
    },
  });
}
