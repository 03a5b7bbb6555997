/// <reference types="jest" />
import { api, ApiError, fieldErrorsOf, queryString } from './api';

describe('the API client', () => {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const respond = (status: number, body: unknown) => {
    globalThis.fetch = jest.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return { ok: status < 400, status, text: async () => JSON.stringify(body) } as Response;
    }) as unknown as typeof fetch;
  };
  beforeEach(() => {
    calls.length = 0;
    document.cookie = 'csrftoken=tok123';
  });

  test('query strings drop null and undefined', () => {
    expect(queryString({ a: 1, b: null, c: undefined, d: 'x y', e: false })).toBe('?a=1&d=x+y&e=false');
    expect(queryString({})).toBe('');
  });

  test('unsafe methods echo the csrftoken cookie in X-CSRFToken; GET does not', async () => {
    respond(200, { ok: true });
    await api.post('/api/x/', { a: 1 }, { next: '/n', skip: null });
    await api.get('/api/y/');
    expect(calls[0].url).toBe('/api/x/?next=%2Fn');
    expect((calls[0].init.headers as Record<string, string>)['X-CSRFToken']).toBe('tok123');
    expect(calls[0].init.body).toBe('{"a":1}');
    expect((calls[1].init.headers as Record<string, string>)['X-CSRFToken']).toBeUndefined();
  });

  test('without the cookie, the first unsafe calls ask GET /api/v2/csrf/ once and send the token it sets', async () => {
    document.cookie = 'csrftoken=; max-age=0';
    globalThis.fetch = jest.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      // The server sets the cookie with its answer, as a browser stores it.
      if (url === '/api/v2/csrf/') document.cookie = 'csrftoken=fresh456';
      return { ok: true, status: 200, json: async () => ({ csrftoken: 'fresh456' }), text: async () => '{}' } as Response;
    }) as unknown as typeof fetch;
    await Promise.all([api.post('/api/x/', {}), api.delete('/api/y/')]);
    expect(calls[0].url).toBe('/api/v2/csrf/');
    const unsafe = calls.slice(1).map((c) => [c.url, (c.init.headers as Record<string, string>)['X-CSRFToken']]);
    expect(unsafe.sort()).toEqual([['/api/x/', 'fresh456'], ['/api/y/', 'fresh456']]);
    await api.post('/api/z/', {});
    expect(calls.map((c) => c.url)).toHaveLength(4); // the cookie now answers
  });

  test('DRF errors become an ApiError naming its fields', async () => {
    respond(400, { email: ['Enter a valid email address.'], non_field_errors: ['Nope.'] });
    const err = await api.post('/api/x/', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
    expect(fieldErrorsOf(err, ['email', 'password', 'non_field_errors'])).toEqual({ email: 'Enter a valid email address.', non_field_errors: 'Nope.' });
    respond(429, { detail: 'Request was throttled.' });
    expect(fieldErrorsOf(await api.post('/api/x/').catch((e: unknown) => e), ['email'])).toEqual({ non_field_errors: 'Request was throttled.' });
    expect(fieldErrorsOf(new TypeError('network'), ['email']).non_field_errors).toMatch(/connection/);
  });
});

describe('multipart posts', () => {
  test('a FormData body goes as multipart with the CSRF header, answered in JSON', async () => {
    const seen: RequestInit[] = [];
    globalThis.fetch = jest.fn(async (_url: string, init: RequestInit) => {
      seen.push(init);
      return { ok: true, status: 200, text: async () => JSON.stringify({ uploaded_image_url: '/media/x.jpg' }) } as Response;
    }) as unknown as typeof fetch;
    document.cookie = 'csrftoken=tok123';
    const form = new FormData();
    form.append('box_width', '300');
    const res = await api.postForm<{ uploaded_image_url: string }>('/streams/image-upload/', form);
    expect(res.uploaded_image_url).toBe('/media/x.jpg');
    expect(seen[0].body).toBe(form);
    expect((seen[0].headers as Record<string, string>)['Content-Type']).toBeUndefined();
    expect((seen[0].headers as Record<string, string>)['X-CSRFToken']).toBe('tok123');
  });
});
