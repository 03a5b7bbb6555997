import type { RequestHandler } from 'express';
import { z } from 'zod';
import { calendarEnabled } from '../../config';
import type { AppContext } from '../../context';
import { memberId } from '../../http/auth-guards';
import { validate } from '../../http/validate';
import { toEventDTO, type EventRow } from '../events/serialize';
import { eventsQuery, whereEventIsPublic } from '../events/queries';
import { booleanField, messages, pkField } from '../saves/fields';
import { isoTime, type CalendarAuthorizationNeededDTO, type EventBookmarkDTO } from '../saves/dto';
import { createAndRead } from '../saves/api';
import { defineSaveKind, type SaveKind } from '../saves/save-kind';
import { deleteSave } from '../saves/save-queries';
import { publicEventBookmarkable } from './queries';

// Saved events. Only approved events that allow it (can_be_bookmarked) may be saved; the
// nested event carries its next start_date_time, as the public event lists do.

const createPayload = z.object({ object_id: pkField, add_to_calendar: booleanField.optional() });

/** Built once per context (AppContext.saveKinds). */
export function createEventBookmarksKind(): SaveKind<EventBookmarkDTO, EventRow> {
  return defineSaveKind<EventBookmarkDTO, EventRow>('eventBookmarks', {
    table: 'event_bookmarks',
    objectColumn: 'event_id',
    objectTable: 'events',
    objectAlias: 'e',
    visible: (qb, now) => void whereEventIsPublic(qb, now, 'e'),
    saveColumns: ['add_to_calendar'],
    objectQuery: (db, _memberId, now) => eventsQuery(db, now),
    async unsaveableReason(db, eventId, now) {
      const event = await publicEventBookmarkable(db, eventId, now);
      if (!event) return messages.doesNotExist(eventId);
      return event.can_be_bookmarked ? null : messages.notBookmarkable;
    },
    toDTO: (row, siteUrl) => ({
      id: row.save_id,
      object_id: Number(row.id),
      add_to_calendar: Boolean(row.save_add_to_calendar),
      date_created: isoTime(row.save_date_created),
      event: toEventDTO(row, siteUrl),
    }),
    parseCreate(body) {
      const { object_id, add_to_calendar = false } = validate(createPayload, body);
      return { objectId: object_id, fields: { add_to_calendar } };
    },
    // start_date_time is the output column eventsQuery computes (the next occurrence).
    list: {
      orderings: {
        start_date_time: [{ column: 'start_date_time', order: 'asc', nulls: 'last' }],
        '-start_date_time': [{ column: 'start_date_time', order: 'desc', nulls: 'last' }],
      },
    },
  });
}

// AppContext.saveKinds.eventBookmarks is this kind (the registry builds it).
declare module '../../context' {
  interface SaveKinds {
    eventBookmarks: SaveKind<EventBookmarkDTO, EventRow>;
  }
}

export type SaveEventOutcome =
  | { status: 200 | 201; body: EventBookmarkDTO }
  | { status: 200; body: CalendarAuthorizationNeededDTO };

/**
 * Saves an event, copying it to the member's Google Calendar when add_to_calendar is set and
 * calendar sync is on. When the member has not authorised Google yet, the bookmark is not
 * kept and the answer is {"status": 101, "authorization_url": …} with HTTP 200: spec 1 §4
 * reads "status 101" from the create, but 101 Switching Protocols cannot carry a body in
 * Node, so the islands read the 101 from the body. A calendar that fails otherwise keeps the
 * bookmark (spec 1 §8: calendar failures are only logged).
 */
export async function saveEvent(ctx: AppContext, memberId: number, body: unknown): Promise<SaveEventOutcome> {
  const kind = ctx.saveKinds.eventBookmarks;
  const { created, dto } = await createAndRead(ctx, kind, memberId, kind.parseCreate(body, ctx.now()));
  // The calendar app's sync comes in the context (AppContext.calendarSync): the calendar sits above bookmarks in the app graph.
  const sync = created && dto.add_to_calendar && calendarEnabled(ctx.config) ? ctx.calendarSync : null;
  if (!sync) return { status: created ? 201 : 200, body: dto };
  try {
    const outcome = await sync(ctx, memberId, dto.object_id);
    if (outcome.status === 'needs_authorization') {
      await deleteSave(ctx.db, kind, memberId, dto.id, ctx.now());
      return { status: 200, body: { status: 101, authorization_url: outcome.authorization_url } };
    }
  } catch (err) {
    ctx.logger.warn({ err, memberId, eventId: dto.object_id }, 'calendar sync of a saved event failed');
  }
  return { status: 201, body: dto };
}

/** POST /api/v2/event-bookmarks/ for a router: one call into saveEvent. */
export function createEventBookmark(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const outcome = await saveEvent(ctx, memberId(req), req.body);
    res.set('Cache-Control', 'no-store').status(outcome.status).json(outcome.body);
  };
}
