/** The profile's server calls: activity figures, display name, password. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ProfileActivity, type User } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';

export function fetchActivity(): Promise<ProfileActivity> {
  return unwrap(api.GET('/api/profile/activity'));
}

export const activityQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.profileActivity, queryFn: fetchActivity, retry: false });

export function useProfileActivity() {
  return useQuery(activityQueryOptions());
}

export function updateDisplayName(displayName: string): Promise<User> {
  return unwrap(api.PATCH('/api/auth/me', { body: { display_name: displayName } }));
}

/** Saves the display name; the signed-in user (sidebar, profile) updates from the answer. */
export function useUpdateDisplayName() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDisplayName,
    onSuccess: (user) => {
      queryClient.setQueryData(queryKeys.me, user);
    },
  });
}

export interface PasswordChangeInput {
  currentPassword: string;
  newPassword: string;
}

export async function changePassword({ currentPassword, newPassword }: PasswordChangeInput): Promise<void> {
  await unwrap(
    api.POST('/api/auth/password', { body: { current_password: currentPassword, new_password: newPassword } }),
  );
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
