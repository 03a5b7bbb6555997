/// <reference types="jest" />
import { authStatusOnce } from './auth-status';
import { accountsApi } from '../navbar/api';
import { savesApi } from '../saves/api';

test('the navbar and the saves island share one /profiles/hi/ request per page load', async () => {
  const fetchMock = jest.fn(async (_url: string) => ({ ok: true, status: 200, text: async () => JSON.stringify({ id: 7, email: 'a@example.com', full_name: 'A', last_updates: {} }) }) as Response);
  globalThis.fetch = fetchMock as unknown as typeof fetch;
  const [fromNavbar, fromSaves, direct] = await Promise.all([accountsApi.authStatus(), savesApi.authStatus(), authStatusOnce()]);
  expect(fromNavbar.id).toBe(7);
  expect(fromSaves).toBe(fromNavbar);
  expect(direct).toBe(fromNavbar);
  expect(fetchMock).toHaveBeenCalledTimes(1);
  expect(fetchMock.mock.calls[0][0]).toContain('/api/v2/profiles/hi/');
});
