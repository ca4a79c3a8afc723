/**
 * The signed-in user's in-app notifications (`GET /api/notifications`), polled once a minute as a
 * background request (it does not keep an idle session alive).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, background, unwrap, type NotificationFeed } from '../../api/client';

const key = ['notifications'] as const;
/** How often the list is read again while the app is open. */
export const NOTIFICATIONS_REFRESH_MS = 60_000;

export function useNotifications() {
  return useQuery({
    queryKey: key,
    queryFn: (): Promise<NotificationFeed> => unwrap(api.GET('/api/notifications', background)),
    refetchInterval: NOTIFICATIONS_REFRESH_MS,
    retry: false,
  });
}

/** Marks everything up to now as read. */
export function useMarkNotificationsSeen() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await unwrap(api.POST('/api/notifications/seen'));
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: key }),
  });
}
