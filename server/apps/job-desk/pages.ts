import { Router, type NextFunction, type Request, type Response } from 'express';
import type { AppContext } from '../../context';
import { PermissionDeniedError, type FieldErrors } from '../../http/errors';
import { staffMenu, type StaffSection } from '../../http/staff-menu';
import { page, PageRedirect, type PageView } from '../../http/pages/page-view';
import { formPost } from '../../http/pages/form-post';
import { formBodyOf } from '../../http/validate';
import { LATE_AFTER_SECONDS } from '../../jobs/queue';
import { roleAtLeast } from '../../../shared/newsroom';
import { staffActorOf } from '../staff-audit/audit-log-queries';
import { durationText } from './job-view';
import { JOBS_LISTED, type JobDeskService } from './service';
import { retryFailedFormSchema, retryJobFormSchema, retryNoticeSchema } from './schemas';

// The job queue for administrators (issue 40): what waits, runs, failed or is late, per queue,
// and a failed job, or a queue's failed jobs, put back to run. A server-rendered page that
// works without JavaScript: every action is a POST form with the CSRF token, written to the
// audit log and answered with a redirect (303), so a reload never repeats it.

const JOBS = '/staff/jobs/';

/** The jobs page's section of the staff menu (every staff member sees it; only administrators get in). */
export const jobDeskStaffSection: StaffSection = {
  href: JOBS,
  title: 'Jobs',
  text: 'Administrators: the job queue, what is waiting, running, late or failed, and retrying failed jobs.',
};

const ADMINISTRATORS_ONLY = 'The jobs page is for administrators.';

/** Page guard: guests go to the login page and come back; anyone but an administrator gets the 403 page. */
function requireAdministratorPage(req: Request, res: Response, next: NextFunction): void {
  if (!req.user) {
    const back = req.method === 'GET' || req.method === 'HEAD' ? req.originalUrl : JOBS;
    return res.redirect(302, `/accounts/login?next=${encodeURIComponent(back)}`);
  }
  if (!roleAtLeast(req.user.newsroom_role, 'administrator')) return next(new PermissionDeniedError(ADMINISTRATORS_ONLY));
  next();
}

export function jobDeskPages(ctx: AppContext, desk: JobDeskService): Router {
  const router = Router();
  const admin = requireAdministratorPage;

  const jobsPage = async (req: Request, errors: FieldErrors | null = null): Promise<PageView> => {
    const notice = retryNoticeSchema.safeParse(req.query);
    return {
      template: 'staff/jobs.njk',
      ...staffMenu(ctx, JOBS),
      pageTitle: 'Jobs',
      ...(await desk.desk()),
      listed: JOBS_LISTED,
      lateAfter: durationText(LATE_AFTER_SECONDS),
      notice: notice.success && !errors ? notice.data : null,
      // The forms are buttons with hidden fields: a refusal is a form that was not ours.
      formError: errors ? Object.values(errors).flat()[0] ?? 'That retry was refused.' : null,
    };
  };
  const done = (queue: string, retried: number) => new PageRedirect(`${JOBS}?retried=${retried}&queue=${encodeURIComponent(queue)}`, 303);

  router.get(JOBS, admin, page('private', (req) => jobsPage(req)));
  router.post(`${JOBS}retry/`, admin, page('private', (req, res) =>
    formPost(res, {
      schema: retryJobFormSchema,
      body: formBodyOf(req.body),
      valid: async (form) => done(form.queue, await desk.retry(staffActorOf(req), form.queue, form.id)),
      invalid: (errors) => jobsPage(req, errors),
    }),
  ));
  router.post(`${JOBS}retry-failed/`, admin, page('private', (req, res) =>
    formPost(res, {
      schema: retryFailedFormSchema,
      body: formBodyOf(req.body),
      valid: async (form) => done(form.queue, await desk.retryFailed(staffActorOf(req), form.queue)),
      invalid: (errors) => jobsPage(req, errors),
    }),
  ));

  return router;
}
