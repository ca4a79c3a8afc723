import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { queryKeys } from '../api/queryKeys';
import { makeUser } from '../test/utils';
import { createQueryClient } from './providers';

describe('createQueryClient', () => {
  it('forgets the signed-in user when a query is answered 401 (the session ended)', async () => {
    const client = createQueryClient();
    client.setQueryData(queryKeys.me, makeUser());

    await client
      .fetchQuery({
        queryKey: ['settings'],
        queryFn: () => Promise.reject(new ApiError(401, 'Not authenticated.')),
        retry: false,
      })
      .catch(() => undefined);

    expect(client.getQueryData(queryKeys.me)).toBeNull();
  });

  it('keeps the user on other failures', async () => {
    const client = createQueryClient();
    const user = makeUser();
    client.setQueryData(queryKeys.me, user);

    await client
      .fetchQuery({
        queryKey: ['settings'],
        queryFn: () => Promise.reject(new ApiError(500, 'Internal server error.')),
        retry: false,
      })
      .catch(() => undefined);

    expect(client.getQueryData(queryKeys.me)).toEqual(user);
  });
});
