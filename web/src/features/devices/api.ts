import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  fetchDeviceLog,
  fetchDeviceRecordings,
  fetchDevices,
  registerDevice,
  renameDevice,
  revokeDevice,
  rotateDeviceToken,
  type DeviceType,
} from '../../api/devices';
import { queryKeys } from '../../api/queryKeys';

/** How often the page re-reads the registry (online/offline follows the heartbeats). */
export const DEVICES_REFRESH_MS = 15_000;
/** How often the page re-reads the connection log. */
export const LOG_REFRESH_MS = 5_000;

/**
 * The page's lists are polled: their requests are background ones (`X-Cardio-Background`), so a page
 * left open does not keep an idle session alive.
 */
const polling = { background: true } as const;

export const devicesQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.deviceList, queryFn: () => fetchDevices(polling), retry: false });

export function useDevices() {
  return useQuery({ ...devicesQueryOptions(), refetchInterval: DEVICES_REFRESH_MS });
}

export function useDeviceRecordings(deviceId: string | null, enabled = true) {
  return useQuery({
    queryKey: queryKeys.deviceRecordings(deviceId),
    queryFn: () => fetchDeviceRecordings(deviceId, deviceId ? 1 : 20, polling),
    retry: false,
    enabled,
    refetchInterval: LOG_REFRESH_MS,
  });
}

export function useDeviceLog() {
  return useQuery({
    queryKey: queryKeys.deviceLog,
    queryFn: () => fetchDeviceLog(50, polling),
    retry: false,
    refetchInterval: LOG_REFRESH_MS,
  });
}

/** After any registry change: the list, the log (every change writes a line) and the dashboard. */
function useInvalidateDevices() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.devices });
    void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard });
  };
}

export function useRegisterDevice() {
  const invalidate = useInvalidateDevices();
  return useMutation({
    mutationFn: ({ name, type }: { name: string; type: DeviceType }) => registerDevice(name, type),
    onSuccess: invalidate,
  });
}

export function useRenameDevice() {
  const invalidate = useInvalidateDevices();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => renameDevice(id, name),
    onSuccess: invalidate,
  });
}

export function useRotateToken() {
  const invalidate = useInvalidateDevices();
  return useMutation({ mutationFn: (id: string) => rotateDeviceToken(id), onSuccess: invalidate });
}

export function useRevokeDevice() {
  const invalidate = useInvalidateDevices();
  return useMutation({ mutationFn: (id: string) => revokeDevice(id), onSuccess: invalidate });
}
