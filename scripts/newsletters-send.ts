// npm run newsletters:send -- <type> [--dry-run | --queue]
// Sends the current issue of one newsletter (news, events, foods, real_estate, travel,
// photo_challenge_alerts, promotions, contests) to its subscribers, members and guests, once
// (run again, it sends nothing; after a crash it carries on where it stopped), through
// the one newsletter email (server/apps/newsletters/newsletter-email.ts: unsubscribe links,
// List-Unsubscribe headers, the CASL footer). Mail goes to SMTP_URL, or to DATA_DIR/outbox.
// In production MAIL_POSTAL_ADDRESS must be set. Stop the server first on the embedded database.
// With --queue it sends nothing itself: it queues the newsletter.send job, which a running
// server process takes (PostgreSQL; one waiting per type), retries and carries on after a crash.
import { loadConfig } from '../server/config';
import { NEWSLETTER_TYPES, type NewsletterType } from '../server/apps/newsletters/unsubscribe-token';
import { currentIssue } from '../server/apps/newsletters/newsletter-issue-queries';
import { postalAddress } from '../server/apps/newsletters/newsletter-email';
import { isNewsletterOffered } from '../server/apps/newsletters/schemas';
import { NEWSLETTER_SEND_JOB, sendNewsletter } from '../server/apps/newsletters/newsletter-send-job';
import { createJobQueue } from '../server/jobs/queue';
import { commandLogger, commandMailer, runCommand, withDatabase } from './command';

const USAGE = `usage: newsletters:send -- <${NEWSLETTER_TYPES.join(' | ')}> [--dry-run | --queue]`;

export function parseArgs(argv: string[]): { type: NewsletterType; dryRun: boolean; queue: boolean } {
  const [type, ...rest] = argv;
  if (!(NEWSLETTER_TYPES as string[]).includes(type ?? '') || rest.some((a) => a !== '--dry-run' && a !== '--queue')) throw new Error(USAGE);
  if (rest.includes('--dry-run') && rest.includes('--queue')) throw new Error(USAGE);
  return { type: type as NewsletterType, dryRun: rest.includes('--dry-run'), queue: rest.includes('--queue') };
}

runCommand(module, async () => {
  const { type, dryRun, queue } = parseArgs(process.argv.slice(2));
  const config = loadConfig();
  if (!isNewsletterOffered(config, type)) throw new Error(`The ${type} newsletter is off (its section's feature flag).`);
  postalAddress(config); // fails before anything is sent when production lacks MAIL_POSTAL_ADDRESS
  const logger = commandLogger(config);
  await withDatabase(
    async ({ db }) => {
      if (queue) {
        const jobs = createJobQueue(db, { queues: [{ name: NEWSLETTER_SEND_JOB, policy: 'short' }] });
        // Retries (a send another run still holds waits for its 5-minute lease) span about 40 minutes.
        const id = await jobs.send(NEWSLETTER_SEND_JOB, { type }, { singletonKey: type, retryLimit: 8 });
        await jobs.stop();
        console.log(id ? `Queued the ${type} newsletter's send (job ${id}); a server process sends it.` : `A send of the ${type} newsletter is already queued: nothing added.`);
        return;
      }
      const issue = await currentIssue({ db, config, now: () => new Date() }, type);
      if (!issue) {
        console.log(`Nothing new for ${type}: no issue sent.`);
        return;
      }
      console.log(`${issue.subject}: ${issue.items.length} items`);
      if (dryRun) {
        for (const item of issue.items) console.log(`  ${item.title}  ${item.url}`);
        return;
      }
      const outcome = await sendNewsletter({ db, config, mailer: commandMailer(config, logger), logger }, type, issue);
      if (outcome.status === 'already-sent') {
        console.log(`This issue was already sent (finished ${outcome.finishedAt.toISOString()}, to ${outcome.sent} subscribers): nothing sent.`);
        return;
      }
      if (outcome.status === 'running') {
        throw new Error(`Another send of this issue is running (started ${outcome.startedAt.toISOString()}); if it died, run this again after ${outcome.runningUntil.toISOString()} to carry it on.`);
      }
      const { sent, failed, resumed } = outcome;
      console.log(`${resumed ? 'carried on an interrupted send: ' : ''}sent to ${sent} subscribers${failed ? `, ${failed} failed (see the log)` : ''}`);
      if (failed) process.exitCode = 1;
    },
    { config, logger },
  );
});
