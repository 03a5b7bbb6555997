import { Router } from 'express';
import type { AppContext } from '../../context';
import { memberId, requireMember } from '../../http/auth-guards';
import { validate } from '../../http/validate';
import { imageUploadParser, type ImageUploadService } from './service';
import { uploadBodySlot } from '../media/image-work';
import { imageUploadFieldsSchema } from './schemas';

// ## Image uploads (the add-event form's image panel). Members only: the body is parsed after
// the session says who is asking, so a guest cannot make the server buffer a file.
export function uploadsRoutes(ctx: AppContext, uploads: ImageUploadService): Router {
  const router = Router();

  router.post('/streams/image-upload/', requireMember, uploadBodySlot, imageUploadParser, async (req, res) => {
    const files = (req.files as Express.Multer.File[] | undefined) ?? [];
    const stored = await uploads.store(memberId(req), files[0], validate(imageUploadFieldsSchema, req.body));
    res.json(stored.response);
  });

  return router;
}
