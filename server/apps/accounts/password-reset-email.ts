import type { MailMessage } from '../../mail/mailer';
import { RESET_TOKEN_TTL_MS } from './reset-token-queries';

/** The reset message: plain text first (it is what most clients show for a link like this). */
export function resetPasswordEmail({ to, siteName, link }: { to: string; siteName: string; link: string }): MailMessage {
  const hours = Math.round(RESET_TOKEN_TTL_MS / 3600_000);
  const text = [
    `You're receiving this email because someone asked to reset the password for your ${siteName} account.`,
    '',
    'Choose a new password here:',
    link,
    '',
    `The link works once and for ${hours} hours. If you didn't ask for this, you can ignore this email: your password stays as it is.`,
    '',
    `The ${siteName} team`,
  ].join('\n');
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const html =
    `<p>You're receiving this email because someone asked to reset the password for your ${esc(siteName)} account.</p>` +
    `<p><a href="${esc(link)}">Choose a new password</a></p>` +
    `<p>The link works once and for ${hours} hours. If you didn't ask for this, you can ignore this email.</p>`;
  return { to, subject: `Reset your ${siteName} password`, text, html };
}
