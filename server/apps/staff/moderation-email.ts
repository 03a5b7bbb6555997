import type { MailMessage } from '../../mail/mailer';
import { absoluteUrl, urls } from '../../../shared/urls';

// The email a member receives when staff approve or reject the event they submitted.

export interface ModeratedEvent {
  id: number;
  title: string;
  slug: string;
}

export function moderationEmail(
  opts: { siteName: string; siteUrl: string; to: string; name: string | null },
  event: ModeratedEvent,
  decision: 'approved' | 'rejected',
  note: string,
): MailMessage {
  const hello = opts.name ? `Hello ${opts.name},` : 'Hello,';
  const lines =
    decision === 'approved'
      ? [
          hello,
          '',
          `Your event "${event.title}" has been approved and is now listed on ${opts.siteName}:`,
          absoluteUrl(opts.siteUrl, urls.event(event.slug, event.id)),
          ...(note ? ['', 'A note from our editors:', note] : []),
        ]
      : [
          hello,
          '',
          `Thank you for submitting "${event.title}". Our editors could not approve it for ${opts.siteName}.`,
          '',
          'Their note:',
          note,
          '',
          `You are welcome to submit it again with changes: ${absoluteUrl(opts.siteUrl, '/events/add/')}`,
        ];
  return {
    to: opts.to,
    subject: (decision === 'approved' ? `Your event "${event.title}" is approved` : `Your event "${event.title}" was not approved`).slice(0, 200),
    text: [...lines, '', `— ${opts.siteName}`].join('\n'),
  };
}
