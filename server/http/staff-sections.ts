// The staff area's menu. It lives beside requireStaffPage rather than in the staff app so that
// every app with pages under /staff/ (staff, contests, ads) renders the same menu without importing
// an app above it in the app graph.

/** The links of the staff landing page and of every staff page's menu. */
export const STAFF_SECTIONS = [
  { href: '/staff/events/', title: 'Pending events', text: 'Events members submitted, waiting for approval.' },
  { href: '/staff/photos/', title: 'Listing photos', text: 'Photos members added to places, newest first.' },
  { href: '/staff/contact/', title: 'Contact messages', text: 'What people sent with the contact form.' },
  { href: '/staff/accessibility/', title: 'Accessibility reports', text: 'What members found about places’ accessibility: verify it or dismiss it.' },
  { href: '/staff/contests/', title: 'Contest entries', text: 'Entries to contests, and drawing winners.' },
  { href: '/staff/ads/', title: 'House ads', text: 'Our own ads in the ad slots: images, links, dates, and their counts.' },
  { href: '/staff/best-of/', title: 'Best of lists', text: 'Add, remove and reorder picks, with the reason readers see in each list\'s change log.' },
  { href: '/staff/audit/', title: 'Audit log', text: 'Every staff action: who did what, when.' },
] as const;

/** What templates/staff/layout.njk needs: the menu, and which of its links is the current page. */
export function staffMenu(currentSection: string) {
  return { sections: STAFF_SECTIONS, currentSection };
}
