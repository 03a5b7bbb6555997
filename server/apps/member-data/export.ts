import type { Writable } from 'node:stream';
import type { AppContext } from '../../context';
import { NEWSLETTERS } from '../../../shared/constants';
import type { Member } from '../profiles/member';
import { icsEvent, icsHeader, ICS_FOOTER } from '../calendar/ics';
import { occurrenceIcsEvent } from '../calendar/ics-feed';
import { ianaZone } from '../calendar/google-event';
import {
  accountSecrets, BATCH_SIZE, calendarConnection, FAVOURITES, guestSubscriptionByEmail, MEMBER_TABLES, occurrencesOf, PHOTO_COLUMNS, photoRows, photoUrl, savedEvents,
} from './member-row-queries';
import { writeJson, writeTable, type Row } from './tabular';
import { ZipStream } from './zip-stream';

// Everything the site keeps about one member, as one ZIP streamed into `out` (the response):
// README.txt, profile.json, newsletters, every table of theirs as JSON and CSV, favourites as
// GeoJSON, saved events as ICS, and their photos' image files. Only rows of this member are
// read: every query is scoped by their id (member-row-queries.ts).

type ExportContext = Pick<AppContext, 'db' | 'config' | 'storage' | 'now'>;

/** Formats whose bytes are compressed already: stored as they are. */
const COMPRESSED = new Set(['jpg', 'jpeg', 'png', 'gif', 'webp', 'avif']);

function extensionOf(key: string): string {
  return /\.([a-z0-9]{1,5})$/i.exec(key)?.[1].toLowerCase() ?? 'bin';
}

export function exportFileName(siteName: string, now: Date): string {
  const site = siteName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'site';
  return `${site}-your-data-${now.toISOString().slice(0, 10)}.zip`;
}

export async function writeMemberExport(ctx: ExportContext, member: Member, out: Writable): Promise<void> {
  const { db, config, storage } = ctx;
  const siteUrl = config.site.url;
  // What the profile needs is read before the first byte is sent, so that a database that is
  // away answers a proper error page rather than a cut download.
  const avatarFile = member.avatar && (await storage.exists(member.avatar)) ? `profile/avatar.${extensionOf(member.avatar)}` : null;
  const calendar = await calendarConnection(db, member.id);
  const secrets = await accountSecrets(db, member.id);
  const guest = await guestSubscriptionByEmail(db, member.email);

  const zip = new ZipStream(out);
  await zip.file('README.txt', readme(config.site.name, member, ctx.now()));

  // ## The profile, and its photo
  await writeJson(zip, 'profile.json', {
    id: member.id,
    email: member.email,
    full_name: member.full_name,
    first_name: member.first_name,
    last_name: member.last_name,
    date_joined: member.date_joined,
    last_login: member.last_login,
    avatar_file: avatarFile,
    // Whether the account has these, never their values: hashes and tokens are keys, not data.
    has_password: Boolean(secrets?.has_password),
    signs_in_with_apple: Boolean(secrets?.apple_sub),
    signs_in_with_facebook: Boolean(secrets?.facebook_id),
    private_calendar_feed: Boolean(secrets?.has_ics_feed),
    google_calendar_connected: calendar ? { since: calendar.date_created } : null,
    sync_bookmarked_events_to_google_calendar: member.sync_bookmarked_events_to_google_calendar,
  });
  if (avatarFile && member.avatar) await copyStored(ctx, zip, member.avatar, avatarFile);

  // ## Newsletters: the member's choices, and a sign-up made without the account, if any
  const newsletterRows: Row[] = NEWSLETTERS.map((n) => ({ source: 'account', newsletter: n.name, field: n.id, subscribed: Boolean(member[n.id]) }));
  if (guest) {
    for (const n of NEWSLETTERS) {
      if (n.guestField) newsletterRows.push({ source: 'sign-up without an account', newsletter: n.name, field: n.guestField, subscribed: Boolean(guest[n.guestField]) });
    }
  }
  await writeTable(zip, 'newsletters', ['source', 'newsletter', 'field', 'subscribed'], async function* () {
    yield* newsletterRows;
  });

  // ## The member's tables
  for (const table of MEMBER_TABLES) await writeTable(zip, table.file, table.columns, () => table.rows(db, member.id, siteUrl));

  await writeFavouritesGeoJson(zip, ctx, member.id);
  await writeSavedEventsIcs(zip, ctx, member.id);
  await writePhotos(zip, ctx, member.id);

  await zip.end();
}

/** A FeatureCollection of the favourite places; a place without coordinates has a null geometry. */
async function writeFavouritesGeoJson(zip: ZipStream, ctx: ExportContext, memberId: number): Promise<void> {
  const entry = zip.entry('favourites.geojson');
  await entry.write('{"type":"FeatureCollection","features":[');
  let first = true;
  for await (const r of FAVOURITES.rows(ctx.db, memberId, ctx.config.site.url)) {
    const geometry = r.latitude !== null && r.longitude !== null ? { type: 'Point', coordinates: [Number(r.longitude), Number(r.latitude)] } : null;
    const properties = { name: r.listing_name, url: r.listing_url, address: r.address, saved_at: r.date_created };
    await entry.write(`${first ? '' : ','}\n${JSON.stringify({ type: 'Feature', id: r.listing_id, geometry, properties })}`);
    first = false;
  }
  await entry.write('\n]}\n');
  await entry.end();
}

/** Every occurrence of every saved event, as the private calendar feed writes them. */
async function writeSavedEventsIcs(zip: ZipStream, ctx: ExportContext, memberId: number): Promise<void> {
  const { db, config } = ctx;
  const now = ctx.now();
  const host = new URL(config.site.url).host;
  const entry = zip.entry('saved-events.ics');
  await entry.write(icsHeader({ prodId: `-//${config.site.name}//Your data//EN`, name: `${config.site.name}: my saved events`, timeZone: ianaZone(config.city.timeZone), now }));
  const saved = savedEvents(db, memberId);
  let eventIds: number[] = [];
  const writeOccurrences = async () => {
    for await (const r of occurrencesOf(db, eventIds)) await entry.write(icsEvent(occurrenceIcsEvent(r, config.site.url, host), now));
    eventIds = [];
  };
  for await (const bookmark of saved) {
    eventIds.push(Number(bookmark.event_id));
    if (eventIds.length === BATCH_SIZE) await writeOccurrences();
  }
  if (eventIds.length) await writeOccurrences();
  await entry.write(ICS_FOOTER);
  await entry.end();
}

/** photos.json / photos.csv, then each photo's image as photos/{id}.{ext}. */
async function writePhotos(zip: ZipStream, ctx: ExportContext, memberId: number): Promise<void> {
  const { db, storage, config } = ctx;
  const fileOf = (r: Row) => `photos/${r.id}.${extensionOf(String(r.image_key))}`;
  const present = async function* (): AsyncGenerator<Row> {
    for await (const r of photoRows(db, memberId)) {
      // A photo whose file is gone from the storage is listed without one.
      const image_file = (await storage.exists(String(r.image_key))) ? fileOf(r) : null;
      yield { ...r, photo_url: photoUrl(config.site.url, r), image_file };
    }
  };
  await writeTable(zip, 'photos', PHOTO_COLUMNS, present);
  for await (const r of present()) if (r.image_file) await copyStored(ctx, zip, String(r.image_key), String(r.image_file));
}

/** Copies one stored file into the ZIP, streamed from the store (local disk or bucket). */
async function copyStored(ctx: ExportContext, zip: ZipStream, key: string, name: string): Promise<void> {
  const entry = zip.entry(name, { stored: COMPRESSED.has(extensionOf(key)) });
  const object = await ctx.storage.read(key);
  if (object) for await (const chunk of object.body) await entry.write(chunk as Buffer);
  await entry.end();
}

function readme(siteName: string, member: Member, now: Date): string {
  const tables = MEMBER_TABLES.map((t) => `  ${t.file}.json, ${t.file}.csv: ${t.about}`);
  return [
    `Your data at ${siteName}`,
    `Exported for ${member.email} on ${now.toISOString()}.`,
    '',
    'Each table comes twice: as JSON (for programs) and as CSV (for spreadsheets). Times are UTC (ISO 8601).',
    '',
    '  profile.json: your account (passwords and private tokens are never exported, only whether they exist)',
    '  profile/avatar.*: your profile photo, if you uploaded one',
    '  newsletters.json, newsletters.csv: which newsletters you receive',
    ...tables,
    '  photos.json, photos.csv: photos you uploaded; their image files are in photos/',
    '  favourites.geojson: your favourite places on a map (GeoJSON FeatureCollection)',
    '  saved-events.ics: your saved events, for any calendar app',
    '',
  ].join('\r\n');
}
