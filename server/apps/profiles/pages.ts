import { Router } from 'express';
import type { AppContext } from '../../context';
import { calendarEnabled } from '../../config';
import { requireMemberPage } from '../../http/auth-guards';
import { addIsland } from '../../views';
import type { Member } from './member';
import { profileDTO } from './serialize';
import { profileCounts } from './queries';
import { ACCOUNT_DELETE_PATH, MEMBER_EXPORT_PATH } from '../../../shared/member-data';

// ## The member dashboard: the page shell the dashboard island mounts into, with the member's
// profile and counts as its state. Its path stays under /accounts/, where members know it.
export function profilesPages(ctx: AppContext): Router {
  const router = Router();

  router.get('/accounts/dashboard/', requireMemberPage, async (req, res) => {
    const member = req.user as Member;
    addIsland(res, 'dashboard', {
      profile: profileDTO(member),
      counts: await profileCounts(ctx.db, member.id),
      calendarEnabled: calendarEnabled(ctx.config),
      iosAppUrl: ctx.config.social.iosAppUrl ?? null,
    });
    // The member's own page: no cache may keep it.
    res.set('Cache-Control', 'private, no-store');
    res.render('accounts/dashboard.njk', { pageTitle: 'Dashboard', member, memberExportPath: MEMBER_EXPORT_PATH, accountDeletePath: ACCOUNT_DELETE_PATH });
  });
  router.get('/accounts/dashboard', (_req, res) => res.redirect(301, '/accounts/dashboard/'));

  return router;
}
