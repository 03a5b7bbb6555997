import type { StaffSection } from '../../http/staff-menu';

// The staff app's sections of the staff menu (the registry puts every app's in order): its
// three queues, each with the count of what waits in it, the listing photos, and the audit log.

const countOf = async (q: PromiseLike<{ n: number } | undefined>) => (await q)?.n ?? 0;

export const staffQueueSections: readonly StaffSection[] = [
  {
    href: '/staff/events/',
    title: 'Pending events',
    text: 'Events members submitted, waiting for approval.',
    pending: (db) => countOf(db('events').where({ status: 'pending' }).first(db.raw('count(*)::int as n'))),
  },
  { href: '/staff/photos/', title: 'Listing photos', text: 'Photos members added to places, newest first.' },
  {
    href: '/staff/contact/',
    title: 'Contact messages',
    text: 'What people sent with the contact form.',
    pending: (db) => countOf(db('contact_messages').whereNull('handled_at').first(db.raw('count(*)::int as n'))),
  },
  {
    href: '/staff/accessibility/',
    title: 'Accessibility reports',
    text: 'What members found about places’ accessibility: verify it or dismiss it.',
    pending: (db) => countOf(db('accessibility_reports').whereNull('reviewed_at').first(db.raw('count(*)::int as n'))),
  },
];

export const staffAuditSection: StaffSection = { href: '/staff/audit/', title: 'Audit log', text: 'Every staff action: who did what, when.' };
