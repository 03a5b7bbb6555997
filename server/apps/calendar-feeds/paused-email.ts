import type { MailMessage } from '../../mail/mailer';

// The email a member gets when their calendar feed is paused after failing again and again.

export interface Recipient {
  siteName: string;
  siteUrl: string;
  to: string;
  name: string | null;
}

export function feedPausedEmail(r: Recipient, feedUrl: string, reason: string): MailMessage {
  const where = `${r.siteUrl}/accounts/dashboard/#/calendar-feeds/`;
  return {
    to: r.to,
    subject: `${r.siteName}: we paused your calendar feed`,
    text: [
      `Hello${r.name ? ` ${r.name}` : ''},`,
      '',
      `We could not read your calendar feed ${feedUrl} three times in a row, so we have stopped fetching it.`,
      `The last attempt: ${reason}`,
      '',
      `Once it is fixed, press "Check now" beside it in your dashboard and we will start again: ${where}`,
      '',
      `— ${r.siteName}`,
    ].join('\n'),
  };
}
