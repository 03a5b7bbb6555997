import { Router, type Request } from 'express';
import type { AppContext } from '../../context';
import { requireMember } from '../../http/auth-guards';
import { ValidationError } from '../../http/errors';
import { validate } from '../../http/validate';
import { findMemberByEmail, isUniqueViolation } from './member-queries';
import type { Member } from './member';
import { emailTaken, profilePatchSchema, profilePutSchema, type ProfilePatch } from './schemas';
import { lastUpdatesDTO, profileDTO } from './serialize';
import { profileCounts, updateProfile } from './queries';

// ## The signed-in member's profile (spec 1 §7). The guest newsletter subscription at
// /api/v2/profiles/guest-newsletters/ belongs to the newsletters app.
export function profilesApi({ db }: AppContext): Router {
  const router = Router();
  const me = (req: Request) => req.user as Member;

  async function saveProfile(member: Member, patch: ProfilePatch) {
    if (patch.email && patch.email !== member.email.toLowerCase()) {
      const other = await findMemberByEmail(db, patch.email);
      if (other && other.id !== member.id) throw ValidationError.field('email', emailTaken);
    }
    try {
      return profileDTO(await updateProfile(db, member.id, patch));
    } catch (err) {
      // CASE: two members took one address at once, both past the lookup; the unique index decides.
      if (patch.email && isUniqueViolation(err)) throw ValidationError.field('email', emailTaken);
      throw err;
    }
  }

  // Auth status: 401 for guests (the islands then clear their stores), otherwise the member
  // and when each cached kind last changed.
  router.get('/api/v2/profiles/hi/', requireMember, (req, res) => {
    const m = me(req);
    res.set('Cache-Control', 'no-store').json({ id: m.id, email: m.email, full_name: m.full_name, last_updates: lastUpdatesDTO(m) });
  });

  router.get('/api/v2/profiles/me/', requireMember, (req, res) => {
    res.set('Cache-Control', 'no-store').json(profileDTO(me(req)));
  });
  router.patch('/api/v2/profiles/me/', requireMember, async (req, res) => {
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
