/**
 * The server-wide Data & Storage settings and the backups (administrators only; mounted only for them):
 * `GET/PUT /api/system/data-settings` (Data Encryption, Auto Backup) and `GET/POST /api/system/backups`.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  api,
  unwrap,
  type BackupList,
  type BackupSummary,
  type DataSettings,
  type DataSettingsView,
} from '../../../api/client';

export const dataSettingsKey = ['system', 'data-settings'] as const;
export const backupsKey = ['system', 'backups'] as const;
const storageKey = ['system', 'storage'] as const;

/** Whether new recordings are encrypted and whether the daily backup is on. */
export function useDataSettings() {
  return useQuery({
    queryKey: dataSettingsKey,
    queryFn: (): Promise<DataSettingsView> => unwrap(api.GET('/api/system/data-settings')),
    retry: false,
  });
}

/** Saves both switches; the cache takes the server's answer. */
export function useSaveDataSettings() {
  const queryClient = useQueryClient();
  return useMutation<DataSettingsView, Error, DataSettings>({
    mutationFn: (body) => unwrap(api.PUT('/api/system/data-settings', { body })),
    onSuccess: (saved) => {
      queryClient.setQueryData(dataSettingsKey, saved);
      void queryClient.invalidateQueries({ queryKey: backupsKey });
    },
  });
}

/** The backups, newest first, and how they are made (PostgreSQL: none, with the operator note). */
export function useBackups() {
  return useQuery({
    queryKey: backupsKey,
    queryFn: (): Promise<BackupList> => unwrap(api.GET('/api/system/backups')),
    retry: false,
  });
}

/** Makes a backup now. */
export function useCreateBackup() {
  const queryClient = useQueryClient();
  return useMutation<BackupSummary, Error, void>({
    mutationFn: () => unwrap(api.POST('/api/system/backups')),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: backupsKey });
      void queryClient.invalidateQueries({ queryKey: storageKey });
    },
  });
}
