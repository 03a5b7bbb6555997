import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'guide-config-'));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  test('defaults describe Toronto with every section on', () => {
    const c = loadConfig({ NODE_ENV: 'test', DATA_DIR: tmp });
    expect(c.city).toMatchObject({ name: 'Toronto', timeZone: 'Canada/Eastern', startYear: 2004 });
    expect(c.country).toEqual({ name: 'Canada', code: 'CA' });
    expect(c.flags).toEqual({ listings: true, events: true, contests: true, videos: true, bestOf: true, photoChallenges: true, patioGuide: true, photoUpload: true, newsOnly: false });
    expect(c.databaseUrl).toBeUndefined();
  });

  test('an invalid value fails fast with a message naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATA_DIR: tmp })).toThrow(/PORT/);
    expect(() => loadConfig({ FEATURE_EVENTS: 'maybe', DATA_DIR: tmp })).toThrow(/FEATURE_EVENTS must be true or false/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x', DATA_DIR: tmp })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ SESSION_SECRET: 'short', DATA_DIR: tmp })).toThrow(/SESSION_SECRET/);
  });

  test('CSRF_TRUSTED_ORIGINS is a list of origins; with SITE_URL unset, 127.0.0.1 is this machine too', () => {
    expect(loadConfig({ DATA_DIR: tmp, SITE_URL: 'https://guide.example', CSRF_TRUSTED_ORIGINS: ' https://A.example, https://*.b.example:8443 ,' }).csrfTrustedOrigins).toEqual([
      'https://a.example',
      'https://*.b.example:8443',
    ]);
    expect(loadConfig({ DATA_DIR: tmp, SITE_URL: 'https://guide.example' }).csrfTrustedOrigins).toEqual([]);
    expect(loadConfig({ DATA_DIR: tmp, PORT: '4000' }).csrfTrustedOrigins).toEqual(['http://127.0.0.1:4000']);
    expect(() => loadConfig({ DATA_DIR: tmp, CSRF_TRUSTED_ORIGINS: 'guide.example' })).toThrow(/CSRF_TRUSTED_ORIGINS/);
    expect(() => loadConfig({ DATA_DIR: tmp, CSRF_TRUSTED_ORIGINS: 'https://guide.example/path' })).toThrow(/CSRF_TRUSTED_ORIGINS/);
  });

  test('INSTANCE_NAME names the process (X-Instance) when set, and must be a plain name', () => {
    expect(loadConfig({ NODE_ENV: 'test', DATA_DIR: tmp }).instanceName).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'test', DATA_DIR: tmp, INSTANCE_NAME: 'node-2' }).instanceName).toBe('node-2');
    expect(() => loadConfig({ NODE_ENV: 'test', DATA_DIR: tmp, INSTANCE_NAME: 'a b\r\nSet-Cookie: x' })).toThrow(/INSTANCE_NAME/);
  });

  test('production refuses to start without SESSION_SECRET', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: tmp })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: tmp })).toThrow(/SESSION_SECRET: required in production/);
    const c = loadConfig({ NODE_ENV: 'production', DATA_DIR: tmp, SESSION_SECRET: 'x'.repeat(40) });
    expect(c.isProduction).toBe(true);
  });

  test('development generates a session secret once and keeps it in DATA_DIR', () => {
    const a = loadConfig({ NODE_ENV: 'development', DATA_DIR: tmp });
    const b = loadConfig({ NODE_ENV: 'development', DATA_DIR: tmp });
    expect(a.sessionSecret.length).toBeGreaterThanOrEqual(32);
    expect(b.sessionSecret).toBe(a.sessionSecret);
    expect(fs.readFileSync(path.join(tmp, 'session-secret'), 'utf8').trim()).toBe(a.sessionSecret);
  });
});
