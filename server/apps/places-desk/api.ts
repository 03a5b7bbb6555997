import { Router } from 'express';
import type { AppContext } from '../../context';
import { requireStaff } from '../../http/auth-guards';
import { validate } from '../../http/validate';
import { PLACE_LOCATE_API } from '../../../shared/place-pin';
import { locatePlace } from './location-queries';
import { locateQuerySchema } from './schemas';

// ## The places desk's JSON: where the add/edit form's pin is (neighbourhood, nearest station),
// asked by the place-pin island as the pin moves. Staff only; never cached (a staff answer).
// Under /api/ (not /staff/) so a refusal is JSON, and not under the newsroom's /api/v2/staff/,
// whose guard asks for a newsroom role.

export function placesDeskApi(ctx: AppContext): Router {
  const router = Router();
  router.get(PLACE_LOCATE_API, requireStaff, async (req, res) => {
    const { latitude, longitude } = validate(locateQuerySchema, { latitude: req.query.latitude, longitude: req.query.longitude });
    res.set('Cache-Control', 'no-store').json(await locatePlace(ctx.dbRead, { latitude, longitude }));
  });
  return router;
}
