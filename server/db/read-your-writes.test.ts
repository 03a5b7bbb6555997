import { decodeMarker, encodeMarker, markerLifetimeMs } from './read-your-writes';

// The marker cookie: only this site's, unexpired and no longer-lived than the site makes them.
const secret = 'a-secret-of-at-least-thirty-two-characters';
const now = 1_800_000_000_000;
const lifetime = markerLifetimeMs({ maxLagMs: 5_000, checkMs: 1_000 });

test('a marker lasts the lag bound plus two checks', () => {
  expect(lifetime).toBe(7_000);
});

test('reads back what it wrote, with or without a WAL position', () => {
  const marker = { lsn: (0x16n << 32n) + 0xb374d848n, untilMs: now + 3_000 };
  expect(encodeMarker(marker, secret)).toMatch(/^16\/B374D848\.\d+\./);
  expect(decodeMarker(encodeMarker(marker, secret), secret, now, lifetime)).toEqual(marker);
  const timeOnly = { lsn: null, untilMs: now + 3_000 };
  expect(decodeMarker(encodeMarker(timeOnly, secret), secret, now, lifetime)).toEqual(timeOnly);
});

test('refuses a marker signed with another secret, altered, expired, or living longer than the site makes them', () => {
  const value = encodeMarker({ lsn: 100n, untilMs: now + 3_000 }, secret);
  expect(decodeMarker(value, 'another-secret-of-thirty-two-characters!', now, lifetime)).toBeNull();
  expect(decodeMarker(value.replace(/^0\/64/, '0/65'), secret, now, lifetime)).toBeNull();
  expect(decodeMarker(value, secret, now + 3_001, lifetime)).toBeNull();
  expect(decodeMarker(encodeMarker({ lsn: 100n, untilMs: now + 3_600_000 }, secret), secret, now, lifetime)).toBeNull();
  expect(decodeMarker(undefined, secret, now, lifetime)).toBeNull();
  expect(decodeMarker('garbage', secret, now, lifetime)).toBeNull();
});
