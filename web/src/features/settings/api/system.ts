import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type ModelSummary, type StorageUsage } from '../../../api/client';

/** The database's and the blob store's sizes (administrators only; mounted only for them). */
export function useStorageUsage() {
  return useQuery({
    queryKey: ['system', 'storage'],
    queryFn: (): Promise<StorageUsage> => unwrap(api.GET('/api/system/storage')),
    retry: false,
  });
}

/** The models the server loaded, with their versions. */
export function useLoadedModels() {
  return useQuery({
    queryKey: ['models', 'about'],
    queryFn: (): Promise<ModelSummary[]> => unwrap(api.GET('/api/models')),
    staleTime: 5 * 60 * 1000,
    retry: false,
  });
}

/** Bytes in the largest unit that keeps the number at or above 1, one decimal (B, KB, MB, GB). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}
