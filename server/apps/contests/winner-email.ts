import type { MailMessage } from '../../mail/mailer';
import { absoluteUrl, urls } from '../../../shared/urls';

// The email a member receives when staff draw them as a contest's winner (the rules promise
// "the winner is contacted by email"). Replies go to the staff address, so claiming the prize
// is answering this email.

export interface WonContest {
  title: string;
  name: string;
  prize: string;
  /** Whether entrants answered the skill-testing question (else the winner answers it before the prize, as the rules say). */
  askedSkillQuestion: boolean;
}

export function contestWinnerEmail(
  opts: { siteName: string; siteUrl: string; staffEmail: string; to: string; name: string | null },
  contest: WonContest,
): MailMessage {
  const lines = [
    opts.name ? `Hello ${opts.name},` : 'Hello,',
    '',
    `Congratulations! You were drawn as the winner of the ${opts.siteName} contest "${contest.title}".`,
    ...(contest.prize.trim() ? ['', 'Your prize:', contest.prize.trim()] : []),
    '',
    'To claim it, reply to this email: our staff will arrange how you receive it.',
    ...(contest.askedSkillQuestion ? [] : ['Before the prize is awarded you will be asked to answer a mathematical skill-testing question, as the contest rules say.']),
    '',
    `The contest and its rules: ${absoluteUrl(opts.siteUrl, urls.contest(contest.name))}`,
    '',
    `— ${opts.siteName}`,
  ];
  return {
    to: opts.to,
    replyTo: opts.staffEmail,
    subject: `You won "${contest.title}"`.slice(0, 200),
    text: lines.join('\n'),
  };
}
