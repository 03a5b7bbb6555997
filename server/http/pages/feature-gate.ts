import type { NextFunction, Request, Response } from 'express';
import type { AppContext } from '../../context';
import type { FeatureFlag } from '../../../shared/constants';

/**
 * Skips the whole router when a section is off: its paths then fall through to the 404 page
 * (and pattern paths such as /{type}/ stay free for other apps).
 */
export function whenFlag(ctx: AppContext, flag: FeatureFlag) {
  return (_req: Request, _res: Response, next: NextFunction) => next(ctx.config.flags[flag] ? undefined : 'route');
}
