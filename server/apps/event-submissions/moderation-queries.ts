import type { Db } from '../../db';
import { NotFoundError } from '../../http/errors';

// The moderation queue of member-submitted events. Approving only flips the status: the
// occurrences were written at submission (an irregular schedule lives only there), and public
// queries show approved events alone.

export interface PendingEvent {
  id: number;
  title: string;
  slug: string;
  description: string;
  website: string;
  image_key: string | null;
  venue_name: string;
  address: string;
  schedule_type: string;
  start_date: string;
  end_date: string | null;
  submitted_by: number | null;
  submitter_email: string | null;
  submitter_name: string | null;
  date_created: Date;
  occurrence_count: number;
  /** Sent by an organiser's calendar feed (issue 28): its address, and what staff must check. */
  feed_url: string | null;
  feed_review: { flags?: string[]; changes?: Array<{ field: string; before: string; after: string }> } | null;
}

export async function listPendingEvents(db: Db): Promise<PendingEvent[]> {
  const rows = await db('events as e')
    .leftJoin('profiles as p', 'p.id', 'e.submitted_by')
    // The calendar-feeds app's link of an imported event to its feed (a table join, no import).
    .leftJoin('calendar_feed_events as fe', 'fe.event_id', 'e.id')
    .leftJoin('calendar_feeds as f', 'f.id', 'fe.feed_id')
    .where('e.status', 'pending')
    .orderBy([{ column: 'e.date_created', order: 'asc' }, { column: 'e.id', order: 'asc' }])
    .select(
      'e.id', 'e.title', 'e.slug', 'e.description', 'e.website', 'e.image_key', 'e.venue_name', 'e.address', 'e.schedule_type', 'e.submitted_by', 'e.date_created',
      'p.email as submitter_email', 'p.full_name as submitter_name', 'f.url as feed_url', 'fe.review as feed_review',
      db.raw("to_char(e.start_date, 'YYYY-MM-DD') as start_date"),
      db.raw("to_char(e.end_date, 'YYYY-MM-DD') as end_date"),
      db.raw('(select count(*)::int from event_occurrences o where o.event_id = e.id) as occurrence_count'),
    );
  return rows as PendingEvent[];
}

export type ModerationDecision = 'approved' | 'rejected';

export async function moderateEvent(db: Db, id: number, decision: ModerationDecision, note = '', now = new Date()): Promise<{ id: number; title: string; status: ModerationDecision }> {
  const [row] = await db('events')
    .where({ id })
    .update({ status: decision, moderation_note: note.slice(0, 2000), date_updated: now })
    .returning(['id', 'title', 'status']);
  if (!row) throw new NotFoundError(`No event with id ${id}.`);
  return row;
}
