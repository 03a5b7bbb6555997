import type { StaffSection } from '../../http/staff-menu';
import { unreviewedAccessibilityReportCount } from './accessibility-report-queries';
import { unhandledContactMessageCount } from './contact-message-queries';
import { pendingEventCount } from './event-queue-queries';

// The staff app's sections of the staff menu (the registry puts every app's in order): its
// three queues, each with the count of what waits in it, the listing photos, and the audit log.

export const staffQueueSections: readonly StaffSection[] = [
  {
    href: '/staff/events/',
    title: 'Pending events',
    text: 'Events members submitted, waiting for approval.',
    pending: pendingEventCount,
  },
  { href: '/staff/photos/', title: 'Listing photos', text: 'Photos members added to places, newest first.' },
  {
    href: '/staff/contact/',
    title: 'Contact messages',
    text: 'What people sent with the contact form.',
    pending: unhandledContactMessageCount,
  },
  {
    href: '/staff/accessibility/',
    title: 'Accessibility reports',
    text: 'What members found about places’ accessibility: verify it or dismiss it.',
    pending: unreviewedAccessibilityReportCount,
  },
];

export const staffAuditSection: StaffSection = { href: '/staff/audit/', title: 'Audit log', text: 'Every staff action: who did what, when.' };
