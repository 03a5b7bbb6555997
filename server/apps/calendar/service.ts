import crypto from 'node:crypto';
import { calendarEnabled } from '../../config';
import type { AppContext } from '../../context';
import { NotFoundError } from '../../http/errors';
import { safeNextPath } from '../../http/safe-redirect';
import { createGoogleClient, GoogleApiError, type GoogleClient, type TokenResponse } from './google-client';
import { createStateSigner, type OAuthState } from './oauth-state';
import { createTokenCipher } from './token-crypto';
import { deleteCredentials, loadCredentials, saveTokens, type CalendarCredentials } from './credential-queries';
import { ianaZone, toGoogleEvent } from './google-event';
import { eventPath } from '../events/serialize';
import { createSave } from '../saves/save-queries';
import type { AnySaveKind } from '../saves/save-kind';
import { renderIcs } from './ics';
import { feedLink, ICS_TOKEN_PATTERN, MAX_FEED_OCCURRENCES, occurrenceIcsEvent, PAST_DAYS, type IcsFeedLink } from './ics-feed';
import { activeMemberByIcsToken, icsTokenOf, loadCalendarSourceEvent, savedEventOccurrences, setBookmarkCalendarEventId, setIcsToken } from './queries';

// The calendar's two services, built once per app by the registry (apps/index.ts):
// - Google Calendar sync of saved events (spec 1 §4 "Event save"). Off, and its routes 404,
//   unless GOOGLE_CLIENT_ID is set. Bookmarks reach it through ctx.calendarSync.
// - The private ICS feed of a member's saved events (ics-feed.ts has its links and VEVENTs).

export const OAUTH_CALLBACK_PATH = '/profiles/oauth2callback/';
/** Refresh a little before Google's expiry, not after a failed call. */
const REFRESH_MARGIN_MS = 60_000;

export type CalendarSyncResult =
  | { status: 'synced'; calendar_event_id: string }
  /** The bookmarks API answers this as the spec's status 101 with the URL. */
  | { status: 'needs_authorization'; authorization_url: string }
  /** GOOGLE_CLIENT_ID is not set: nothing to do. */
  | { status: 'disabled' }
  /** Google failed for another reason (logged): the bookmark stands, the copy is not made. */
  | { status: 'failed'; detail: string };

type Ctx = Pick<AppContext, 'db' | 'config' | 'logger' | 'now' | 'saveKinds'>;

export function createCalendarService(ctx: Ctx) {
  const { db, config, logger } = ctx;
  const cipher = createTokenCipher(config.sessionSecret);
  const states = createStateSigner(config.sessionSecret);
  const google: GoogleClient = createGoogleClient(config.google, `${config.site.url}${OAUTH_CALLBACK_PATH}`);

  /** A usable access token: refreshed when (nearly) expired; null when the member must authorise again. */
  async function accessToken(memberId: number, creds: CalendarCredentials, force = false): Promise<string | null> {
    const expiring = creds.expiresAt !== null && creds.expiresAt.getTime() - REFRESH_MARGIN_MS <= ctx.now().getTime();
    if (!force && !expiring) return creds.accessToken;
    if (!creds.refreshToken) return null;
    let tokens: TokenResponse;
    try {
      tokens = await google.refresh(creds.refreshToken);
    } catch (err) {
      // CASE: invalid_grant means the member revoked access at Google: forget the tokens.
      if (err instanceof GoogleApiError && (err.code === 'invalid_grant' || err.status === 401)) {
        await deleteCredentials(db, memberId);
        return null;
      }
      throw err;
    }
    await saveTokens(db, cipher, memberId, tokens, ctx.now());
    return tokens.access_token;
  }

  function authorizationUrl(memberId: number, opts: { next?: string; eventId?: number; sessionBound: boolean }): { url: string; nonce: string } {
    const { token, nonce } = states.sign({ m: memberId, x: safeNextPath(opts.next, '/'), e: opts.eventId, s: opts.sessionBound }, ctx.now());
    return { url: google.authorizationUrl(token), nonce };
  }

  async function addToCalendar(memberId: number, eventId: number): Promise<CalendarSyncResult> {
    const event = await loadCalendarSourceEvent(db, eventId);
    if (!event) throw new NotFoundError();
    // After consent the member comes back to the event they were saving, now saved.
    const back = eventPath(event);
    const needsAuthorization = (): CalendarSyncResult => ({ status: 'needs_authorization', authorization_url: authorizationUrl(memberId, { eventId, next: back, sessionBound: false }).url });
    const creds = await loadCredentials(db, cipher, memberId);
    if (!creds) return needsAuthorization();
    const body = toGoogleEvent(event, { memberId, siteUrl: config.site.url, siteName: config.site.name, timeZone: config.city.timeZone, now: ctx.now() });
    try {
      let token = await accessToken(memberId, creds);
      if (!token) return needsAuthorization();
      let inserted;
      try {
        inserted = await google.insertEvent(token, creds.calendarId, body);
      } catch (err) {
        // CASE: Google says the token is no longer valid before its expiry: refresh once.
        if (!(err instanceof GoogleApiError && err.status === 401)) throw err;
        token = await accessToken(memberId, creds, true);
        if (!token) return needsAuthorization();
        inserted = await google.insertEvent(token, creds.calendarId, body);
      }
      await setBookmarkCalendarEventId(db, memberId, eventId, inserted.id);
      return { status: 'synced', calendar_event_id: inserted.id };
    } catch (err) {
      logger.warn({ err, memberId, eventId }, 'calendar: could not add the event to Google Calendar');
      return { status: 'failed', detail: err instanceof Error ? err.message : String(err) };
    }
  }

  return {
    authorizationUrl,
    /** Whether the member has Google tokens stored (usable or about to be refreshed). */
    async connected(memberId: number): Promise<boolean> {
      return (await loadCredentials(db, cipher, memberId)) !== null;
    },
    async disconnect(memberId: number): Promise<void> {
      await deleteCredentials(db, memberId);
    },
    verifyState: (token: unknown) => states.verify(token, ctx.now()),
    addToCalendar,

    /** The OAuth callback's work once the state is trusted: tokens stored, the pending event added. */
    async completeAuthorization(memberId: number, state: OAuthState, code: string): Promise<void> {
      const tokens = await google.exchangeCode(code);
      await saveTokens(db, cipher, memberId, tokens, ctx.now());
      if (state.e) {
        // The save that asked for authorisation was not kept (it answered status 101): keep it
        // now, through the bookmarks' own store, then add the event to the calendar.
        const eventId = state.e;
        const kind: AnySaveKind = ctx.saveKinds.eventBookmarks;
        await createSave(db, kind, memberId, kind.parseCreate({ object_id: eventId, add_to_calendar: true }, ctx.now()), ctx.now())
          .then(() => addToCalendar(memberId, eventId))
          .catch((err: unknown) => logger.warn({ err, memberId }, 'calendar: pending event not saved or not added'));
      }
    },
  };
}

export type CalendarService = ReturnType<typeof createCalendarService>;

/**
 * Adds a saved event to the member's Google Calendar. The app registry hands this to the
 * bookmarks as AppContext.calendarSync; they call it when an event is saved with
 * add_to_calendar: true, and answer `needs_authorization` as status 101
 * with the URL; after the member authorises, the callback adds the same event by itself.
 */
export async function syncBookmarkToCalendar(ctx: Ctx, memberId: number, eventId: number): Promise<CalendarSyncResult> {
  if (!calendarEnabled(ctx.config)) return { status: 'disabled' };
  return createCalendarService(ctx).addToCalendar(memberId, eventId);
}

export function createIcsFeedService(ctx: Pick<AppContext, 'db' | 'config' | 'now'>) {
  const { db, config } = ctx;
  return {
    async link(memberId: number): Promise<IcsFeedLink> {
      return feedLink(config.site.url, await icsTokenOf(db, memberId));
    },
    /** A new token: the feed's URL changes and the old one stops working. */
    async rotate(memberId: number): Promise<IcsFeedLink> {
      const token = crypto.randomBytes(32).toString('base64url');
      await setIcsToken(db, memberId, token);
      return feedLink(config.site.url, token);
    },
    async revoke(memberId: number): Promise<void> {
      await setIcsToken(db, memberId, null);
    },

    /** The feed's text, or null when no member has this token. */
    async render(token: string): Promise<string | null> {
      if (!ICS_TOKEN_PATTERN.test(token)) return null;
      const member = await activeMemberByIcsToken(db, token);
      if (!member) return null;
      const since = new Date(ctx.now().getTime() - PAST_DAYS * 86_400_000);
      const rows = await savedEventOccurrences(db, member.id, since, MAX_FEED_OCCURRENCES);
      const host = new URL(config.site.url).host;
      const events = rows.map((r) => occurrenceIcsEvent(r, config.site.url, host));
      return renderIcs({
        prodId: `-//${config.site.name}//Saved events//EN`,
        name: `${config.site.name}: my saved events`,
        timeZone: ianaZone(config.city.timeZone),
        events,
        now: ctx.now(),
      });
    },
  };
}

export type IcsFeedService = ReturnType<typeof createIcsFeedService>;
