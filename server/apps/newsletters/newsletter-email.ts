import type { AppContext } from '../../context';
import type { Config } from '../../config';
import type { MailMessage } from '../../mail/mailer';
import { unsubscribeToken, type NewsletterType, type Recipient } from './unsubscribe-token';
import { newsletterName } from './unsubscribe-queries';

// The one place every newsletter email goes through. Whatever the issue says, each message
// gets, per recipient and newsletter:
// - a signed one-click unsubscribe link (no login; unsubscribe-token.ts), and one for all
//   newsletters, in the body;
// - the RFC 8058 headers, so mail clients show their own Unsubscribe button and POST to the
//   link: `List-Unsubscribe: <https://…>` and `List-Unsubscribe-Post: List-Unsubscribe=One-Click`;
// - the footer CASL requires: who sends it (the site's name and address), a mailing address
//   (MAIL_POSTAL_ADDRESS), how to reach us, and why the recipient gets it.

export interface NewsletterItem {
  title: string;
  url: string;
  blurb?: string;
}

export interface NewsletterIssue {
  subject: string;
  intro: string;
  items: NewsletterItem[];
}

export class MissingPostalAddressError extends Error {
  constructor() {
    super('MAIL_POSTAL_ADDRESS must be set to send newsletters in production (CASL requires the sender’s mailing address).');
  }
}

/** The sender's mailing address; outside production a placeholder that says what to set. */
export function postalAddress(config: Config): string {
  if (config.mail.postalAddress) return config.mail.postalAddress;
  if (config.isProduction) throw new MissingPostalAddressError();
  return `${config.city.name}, ${config.city.province}, ${config.country.name} (set MAIL_POSTAL_ADDRESS)`;
}

export function unsubscribeUrl(config: Config, recipient: Recipient, newsletter: NewsletterType | 'all'): string {
  return `${config.site.url}/newsletters/unsubscribe/?token=${unsubscribeToken(config.sessionSecret, { ...recipient, newsletter })}`;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function newsletterEmail(config: Config, to: { email: string; recipient: Recipient }, type: NewsletterType, issue: NewsletterIssue): MailMessage {
  const name = newsletterName(type);
  const site = config.site;
  const unsubscribe = unsubscribeUrl(config, to.recipient, type);
  const unsubscribeAll = unsubscribeUrl(config, to.recipient, 'all');
  const settings = to.recipient.kind === 'member' ? `${site.url}/accounts/dashboard/#/newsletter/` : `${site.url}/newsletters/`;
  const address = postalAddress(config);
  const why = `You receive ${name} because you subscribed to it at ${site.url}/.`;

  const text = [
    issue.intro,
    '',
    ...issue.items.flatMap((item) => [item.title, ...(item.blurb ? [item.blurb] : []), item.url, '']),
    '--',
    why,
    `Unsubscribe from ${name}: ${unsubscribe}`,
    `Unsubscribe from all our newsletters: ${unsubscribeAll}`,
    `Your newsletter settings: ${settings}`,
    '',
    `${site.name}, ${address}`,
    `Contact us: ${site.url}/contact/`,
  ].join('\n');

  const html =
    `<p>${esc(issue.intro)}</p>` +
    issue.items.map((item) => `<h2><a href="${esc(item.url)}">${esc(item.title)}</a></h2>${item.blurb ? `<p>${esc(item.blurb)}</p>` : ''}`).join('') +
    `<hr><p style="font-size:13px;color:#555">${esc(why)}<br>` +
    `<a href="${esc(unsubscribe)}">Unsubscribe from ${esc(name)}</a> · <a href="${esc(unsubscribeAll)}">Unsubscribe from all our newsletters</a> · <a href="${esc(settings)}">Newsletter settings</a><br>` +
    `${esc(site.name)}, ${esc(address)} · <a href="${esc(`${site.url}/contact/`)}">Contact us</a></p>`;

  return {
    to: to.email,
    subject: issue.subject,
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'List-Id': `${name} <${type.replace(/_/g, '-')}.newsletters.${new URL(site.url).hostname}>`,
    },
  };
}

/** Sends one newsletter email; every newsletter sender calls this and nothing else. */
export async function sendNewsletterEmail(ctx: Pick<AppContext, 'config' | 'mailer'>, to: { email: string; recipient: Recipient }, type: NewsletterType, issue: NewsletterIssue): Promise<void> {
  await ctx.mailer.send(newsletterEmail(ctx.config, to, type, issue));
}
