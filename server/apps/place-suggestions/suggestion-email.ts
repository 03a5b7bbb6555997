import type { MailMessage } from '../../mail/mailer';
import { absoluteUrl } from '../../../shared/urls';
import type { SuggestionKind } from '../../../shared/place-suggestions';

// The email a reader receives when staff apply the edit they suggested to a place.

const WHAT: Record<SuggestionKind, string> = {
  closed: 'that it has closed',
  moved: 'its new address',
  hours: 'its hours',
  phone: 'its phone number',
  website: 'its website',
  name: 'its name',
};

export function suggestionAppliedEmail(
  opts: { siteName: string; siteUrl: string; to: string; name: string | null },
  place: { name: string; path: string },
  kind: SuggestionKind,
): MailMessage {
  const lines = [
    opts.name ? `Hello ${opts.name},` : 'Hello,',
    '',
    `Thank you for telling us about ${place.name}. Our editors checked your suggestion about ${WHAT[kind]} and the place's page now says so:`,
    absoluteUrl(opts.siteUrl, place.path),
  ];
  return {
    to: opts.to,
    subject: `Your suggestion for ${place.name} is on ${opts.siteName}`.slice(0, 200),
    text: [...lines, '', `— ${opts.siteName}`].join('\n'),
  };
}
