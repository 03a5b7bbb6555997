import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { NGINX_PATH, nginxInstalled, startStackOn, type StackOn } from '../../scripts/stack';
import { scratchClusterUnavailable } from '../../server/testing/postgres-cluster';
import { waitFor } from '../../server/testing/wait-for';
import { RENDITIONS_PREFIX } from '../../server/storage/s3-store';
import { imageUrl } from '../../shared/format/image-url';

// `npm run stack -- --s3 --replica` (scripts/stack.ts, startStackOn): nginx and two production
// processes with their media in an S3 bucket (s3rver, the demo city's pictures copied in by
// media:migrate's code) and their public reads on a hot standby of a primary of their own. One
// stack start for the whole file: seeding the demo city is most of its time.
// Needs nginx, and root with PostgreSQL's binaries for the clusters; otherwise a skipped test says why.

jest.setTimeout(240_000);

/** Long enough that a paused standby is still read (not "lagging") through the steps that pause it. */
const MAX_LAG_SECONDS = 60;

const unavailable = !nginxInstalled() ? `nginx is not installed at ${NGINX_PATH} (apt-get install -y nginx)` : scratchClusterUnavailable();

function describeWhenPossible(name: string, fn: () => void): void {
  if (!unavailable) return describe(name, fn);
  describe(name, () => {
    test.skip(`SKIPPED: ${unavailable}`, () => {});
  });
  console.warn(`stack two-ways test SKIPPED: ${unavailable}`);
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Every file under dir (recursively). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[]).filter((d) => d.isFile()).map((d) => path.join(d.parentPath, d.name));
}

describeWhenPossible('the stack on S3 and a read replica (npm run stack -- --s3 --replica)', () => {
  let stack: StackOn;
  let agent: https.Agent;

  function request(pathname: string, opts: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
      const headers: Record<string, string> = { ...(body ? { 'Content-Type': 'application/json', Origin: stack.url } : {}), ...opts.headers };
      const req = https.request(stack.url + pathname, { method: opts.method ?? 'GET', headers, ca: stack.ca, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }
  const json = (a: Answer) => JSON.parse(a.body.toString('utf8'));
  const healthz = async () => json(await request('/healthz')) as { status: string; replica?: { state: string; lag_bytes: number | null; lag_seconds: number | null; max_lag_seconds: number } };

  beforeAll(async () => {
    stack = await startStackOn({ s3: true, replica: true, seed: true, env: { RATE_LIMITS: 'false', DATABASE_REPLICA_MAX_LAG_SECONDS: String(MAX_LAG_SECONDS) } });
    agent = new https.Agent({ ca: stack.ca, keepAlive: true });
    // Until both processes have checked the standby once, reads go to the primary.
    await waitFor('both processes to read from the standby', async () => {
      const seen = new Set<string>();
      for (let i = 0; i < 6; i++) {
        const a = await request('/healthz');
        if (JSON.parse(a.body.toString()).replica?.state === 'streaming') seen.add(String(a.headers['x-instance']));
      }
      return seen.size === 2;
    }, 60_000);
  });

  afterAll(async () => {
    agent?.destroy();
    await stack?.standby?.resumeReplay().catch(() => {});
    await stack?.stop();
    // Everything it made is gone: the run directory with s3rver's data, and the clusters' ports.
    if (stack) expect(fs.existsSync(stack.runDir)).toBe(false);
  });

  test('it runs where it says: the primary and the standby of its own, the bucket on s3rver', () => {
    expect(stack.replicaUrl).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/guide_stack$/);
    expect(stack.databaseUrl).not.toBe(stack.replicaUrl);
    expect(stack.bucket?.s3rverDir).toBe(path.join(stack.runDir, 's3'));
    expect(stack.where.join('\n')).toMatch(/PostgreSQL hot standby: postgres:\/\/.*\nmedia: s3:\/\/guide-stack-media \(s3rver at http:\/\/127\.0\.0\.1:\d+/);
  });

  test('pages and a listing\'s picture through nginx, the picture\'s bytes from the bucket (the processes\' media dir stays empty)', async () => {
    const hub = await request('/restaurants/');
    expect(hub.status).toBe(200);
    expect(hub.body.toString()).toContain('<html');

    const listings = json(await request('/api/v2/listings/?ordering=name&limit=50')) as { results: Array<{ id: number; image_url: string | null }> };
    const withImage = listings.results.find((l) => l.image_url?.includes('/media/'));
    expect(withImage).toBeDefined();
    const mediaPath = new URL(withImage!.image_url!).pathname;
    const key = decodeURIComponent(mediaPath.slice('/media/'.length));
    expect(await stack.bucket!.keys(key)).toEqual([key]); // copied in at start

    // The original: the bytes s3rver keeps for the key.
    const original = await request(mediaPath);
    expect(original.status).toBe(200);
    expect(original.headers['content-type']).toBe('image/jpeg');
    const inS3rver = filesUnder(stack.bucket!.s3rverDir!).filter((f) => f.includes(key));
    expect(inS3rver.some((f) => fs.readFileSync(f).equals(original.body))).toBe(true);

    // A rendition is made from the bucket's original and kept in the bucket, not on disk.
    const card = await request(imageUrl(key, 'listingCard'));
    expect(card.status).toBe(200);
    expect(card.headers['content-type']).toBe('image/jpeg');
    expect(card.body.length).toBeLessThan(original.body.length);
    await waitFor('the rendition to be kept in the bucket', async () => (await stack.bucket!.keys(`${RENDITIONS_PREFIX}${key}/`)).length > 0, 20_000);
    expect(filesUnder(stack.dataDir)).toEqual([]);
  });

  test('a member\'s favourite is read back at once while the standby has not replayed it; a guest reads the standby', async () => {
    const csrfToken = crypto.randomBytes(32).toString('base64url');
    const signUp = await request('/api/v2/profiles/email-registration/', {
      method: 'POST',
      headers: { Cookie: `csrftoken=${csrfToken}`, 'X-CSRFToken': csrfToken },
      body: { email: `two-ways-${crypto.randomBytes(4).toString('hex')}@example.com`, password: 'correct horse battery staple' },
    });
    expect(signUp.status).toBe(201);
    const session = (signUp.headers['set-cookie'] as string[]).find((c) => c.startsWith('sessionid='))!.split(';')[0];
    const listing = (json(await request('/api/v2/listings/?ordering=name&limit=1')) as { results: Array<{ id: number }> }).results[0];
    const favouriteCount = async (cookie?: string) => {
      const a = await request(`/api/v2/listings/${listing.id}/`, cookie ? { headers: { Cookie: cookie } } : {});
      expect(a.status).toBe(200);
      return json(a).favourite_count as number;
    };
    const before = await favouriteCount(`csrftoken=${csrfToken}; ${session}`);

    await stack.standby!.pauseReplay();
    try {
      const saved = await request('/api/v2/favourites/', { method: 'POST', headers: { Cookie: `csrftoken=${csrfToken}; ${session}`, 'X-CSRFToken': csrfToken }, body: { listing: listing.id } });
      expect(saved.status).toBe(201);
      const marker = ((saved.headers['set-cookie'] as string[] | undefined) ?? []).map((c) => c.split(';')[0]);
      const member = [`csrftoken=${csrfToken}`, session, ...marker].join('; ');
      // Whichever process answers, the member reads the primary: the favourite is there.
      expect(await favouriteCount(member)).toBe(before + 1);
      expect(await favouriteCount(member)).toBe(before + 1);
      // A guest reads the standby, which has not replayed it: the replica is really read.
      expect(await favouriteCount(`csrftoken=${crypto.randomBytes(32).toString('base64url')}`)).toBe(before);
    } finally {
      await stack.standby!.resumeReplay();
    }
  });

  test('/healthz reports the replica\'s state through nginx', async () => {
    // The answer that saw the standby caught up is the one checked: the primary keeps writing
    // (sessions, autovacuum), so the next answer may be a few bytes behind again.
    let caughtUp: Awaited<ReturnType<typeof healthz>> | undefined;
    await waitFor('the standby to replay all the primary has', async () => {
      const h = await healthz();
      if (h.replica?.state === 'streaming' && h.replica.lag_bytes === 0) caughtUp = h;
      return caughtUp !== undefined;
    }, 60_000);
    expect(caughtUp).toMatchObject({ status: 'ok', replica: { state: 'streaming', lag_bytes: 0, max_lag_seconds: MAX_LAG_SECONDS } });
    expect(caughtUp!.replica!.lag_seconds).toEqual(expect.any(Number));
    expect(caughtUp!.replica!.lag_seconds!).toBeLessThan(MAX_LAG_SECONDS);
  });
});
