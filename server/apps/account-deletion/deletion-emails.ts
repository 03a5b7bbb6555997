import moment from 'moment-timezone';
import type { MailMessage } from '../../mail/mailer';

// The two emails of a deletion, plain text first (what most clients show for a link like this).

/** When the purge comes, in the city's time: 'Tuesday, December 1, 2026 at 1:44 PM EST'. */
export function purgeTime(date: Date, timeZone: string): string {
  return moment(date).tz(timeZone).format('dddd, MMMM D, YYYY [at] h:mm A z');
}

/** The day an email went out, in the city's time: 'Tuesday, November 24, 2026'. */
export function mailDay(date: Date, timeZone: string): string {
  return moment(date).tz(timeZone).format('dddd, MMMM D, YYYY');
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function message(to: string, subject: string, lines: string[], link: { href: string; label: string }): MailMessage {
  const text = lines.map((l) => (l === '{link}' ? link.href : l)).join('\n');
  const html = lines
    .filter((l) => l !== '')
    .map((l) => (l === '{link}' ? `<p><a href="${esc(link.href)}">${esc(link.label)}</a></p>` : `<p>${esc(l)}</p>`))
    .join('');
  return { to, subject, text, html };
}

export function accountClosedEmail({ to, siteName, undoLink, purgeAfter, timeZone, content }: { to: string; siteName: string; undoLink: string; purgeAfter: Date; timeZone: string; content: 'remove' | 'anonymise' }): MailMessage {
  const when = purgeTime(purgeAfter, timeZone);
  return message(
    to,
    `Your ${siteName} account will be deleted in 7 days`,
    [
      `You asked us to delete your ${siteName} account. It is closed now: you have been signed out everywhere and nobody can log in to it.`,
      '',
      `On ${when} we delete your profile, saves, favourites, to-dos, ratings, bookmarks and newsletter choices for good.`,
      content === 'remove'
        ? 'Your photos and the events you submitted will be deleted with it.'
        : 'Your photos and the events you submitted will stay on the site without your name.',
      '',
      'Changed your mind? Until then this link restores your account as it was:',
      '{link}',
      '',
      `The ${siteName} team`,
    ],
    { href: undoLink, label: 'Restore my account' },
  );
}

export function confirmDeletionEmail({ to, siteName, confirmLink, hours }: { to: string; siteName: string; confirmLink: string; hours: number }): MailMessage {
  return message(
    to,
    `Confirm the deletion of your ${siteName} account`,
    [
      `Someone, probably you, asked to delete your ${siteName} account. You sign in with Facebook or Apple, so we confirm it by email instead of a password.`,
      '',
      'To delete your account, open this link and press the button:',
      '{link}',
      '',
      `The link works for ${hours} hours. If you didn't ask for this, ignore this email: nothing changes.`,
      '',
      `The ${siteName} team`,
    ],
    { href: confirmLink, label: 'Confirm the deletion' },
  );
}
