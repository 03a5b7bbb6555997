import { Router, type NextFunction, type Request, type Response } from 'express';
import type { AppContext } from '../../context';
import { requireMember } from '../../http/auth-guards';
import { ValidationError } from '../../http/errors';
import { validate } from '../../http/validate';
import { nullCharacterErrors } from '../../http/null-characters';
import { LIMITS } from '../../../shared/constants';
import type { AuthStatusDTO } from '../../../shared/dto';
import { findMemberByEmail, isUniqueViolation } from './member-queries';
import type { Member } from './member';
import { emailTaken, profilePatchSchema, profilePutSchema, type ProfilePatch } from './schemas';
import { lastUpdatesDTO, profileDTO } from './serialize';
import { profileCounts, updateProfile } from './queries';
import type { AvatarService } from './service';
import { uploadBodySlot } from '../media/image-work';
import { jsonBase64Body } from '../media/json-base64-body-middleware';
import type { RequestRules } from '../../http/request-rules';

export const profilesRequestRules: Partial<RequestRules> = {
  // The PATCH's JSON body with a photo (base64, ~8.4 MB for 6 MB of JPEG) is more than the core's
  // 1 MB: profileBody below reads it itself, after the session and CSRF checks and, when large,
  // once an upload slot is free, so a guest cannot make the server hold one.
  readsOwnBody: ['PATCH /api/v2/profiles/me/'],
  // The islands' member request, which they make before a member's first unsafe call: its
  // answer always carries the CSRF cookie.
  csrfIssue: ['/api/v2/profiles/hi/'],
};

// A PATCH with a photo is ~8.4 MB of base64 JSON for 6 MB of JPEG: read as the listing photo is
// (media/json-base64-body-middleware.ts), its avatar decoded as it arrives and never held as
// text. A large body waits for a member and a free upload slot (media/image-work.ts); a small
// one (a name, the newsletter boxes) is read at once, bounded as every other JSON body is.
const SMALL_BODY_BYTES = 1024 * 1024;
const AVATAR_BODY_BYTES = (Math.ceil((LIMITS.profilePhotoBytes / 1024 / 1024) * 1.4) + 1) * 1024 * 1024;
const avatarField = { field: 'avatar', maxBytes: LIMITS.profilePhotoBytes };
const smallJson = jsonBase64Body({ ...avatarField, limitBytes: SMALL_BODY_BYTES });
// The rest of a large body may be that large too (a 2 MB name is a 400 on full_name, not a 413).
const avatarJson = jsonBase64Body({ ...avatarField, limitBytes: AVATAR_BODY_BYTES, restBytes: AVATAR_BODY_BYTES });

function profileBody(req: Request, res: Response, next: NextFunction): void {
  // Read after the app-wide NUL check (http/null-characters.ts), so it is made here too.
  const checked = (err?: unknown) => {
    if (err) return next(err);
    const nul = nullCharacterErrors(req.body);
    next(Object.keys(nul).length ? new ValidationError(nul) : undefined);
  };
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared <= SMALL_BODY_BYTES) return void smallJson(req, res, checked);
  uploadBodySlot(req, res, (err?: unknown) => void (err ? next(err) : avatarJson(req, res, checked)));
}

// ## The signed-in member's profile (spec 1 §7). The guest newsletter subscription at
// /api/v2/profiles/guest-newsletters/ belongs to the newsletters app.
export function profilesApi(ctx: AppContext, avatars: AvatarService): Router {
  const { db } = ctx;
  const router = Router();
  const me = (req: Request) => req.user as Member;

  async function saveProfile(member: Member, { avatar, ...patch }: ProfilePatch) {
    if (patch.email && patch.email !== member.email.toLowerCase()) {
      const other = await findMemberByEmail(db, patch.email);
      if (other && other.id !== member.id) throw ValidationError.field('email', emailTaken);
    }
    if (avatar !== undefined) await avatars.replace(member, avatar);
    try {
      return profileDTO(await updateProfile(db, member.id, patch));
    } catch (err) {
      // CASE: two members took one address at once, both past the lookup; the unique index decides.
      if (patch.email && isUniqueViolation(err)) throw ValidationError.field('email', emailTaken);
      throw err;
    }
  }

  // Auth status: 401 for guests (the islands then clear their stores), otherwise the member
  // (with the 80x80 photo the navbar shows) and when each cached kind last changed.
  router.get('/api/v2/profiles/hi/', requireMember, (req, res) => {
    const m = me(req);
    const status: AuthStatusDTO = {
      id: m.id,
      email: m.email,
      full_name: m.full_name,
      avatar_url: profileDTO(m).avatar_url,
      calendar_sync: m.sync_bookmarked_events_to_google_calendar ?? null,
      is_staff: m.is_staff === true,
      last_updates: lastUpdatesDTO(m),
    };
    res.set('Cache-Control', 'no-store').json(status);
  });

  router.get('/api/v2/profiles/me/', requireMember, (req, res) => {
    res.set('Cache-Control', 'no-store').json(profileDTO(me(req)));
  });
  router.patch('/api/v2/profiles/me/', requireMember, profileBody, async (req, res) => {
    res.json(await saveProfile(me(req), validate(profilePatchSchema, req.body)));
  });
  router.put('/api/v2/profiles/me/', requireMember, async (req, res) => {
    res.json(await saveProfile(me(req), validate(profilePutSchema, req.body)));
  });

  router.get('/api/v2/profiles/me/dashboard/', requireMember, async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await profileCounts(db, me(req).id));
  });

  return router;
}
