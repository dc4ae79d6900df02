import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../infra/http/problems.ts';
import type { CatalogStore } from './catalog-store.ts';
import { MediaParams } from './media.schemas.ts';
import { PHOTO_FORMATS, parseMediaName } from './photos/photo-sizes.ts';
import { findPhotoFile, PhotoVariants } from './photos/photo-variants.ts';

/** Served sizes never change under their content-hashed names (as the pages' own assets). */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * `GET /media/…` (API.md 9.1): the catalogue's photo files in the sizes `src` and `srcset` name,
 * each made once and kept in `DATA_DIR/media/` (`photos/photo-variants.ts`). Any other name is 404.
 */
export const mediaRoutes: FastifyPluginAsyncTypebox<{ catalog: CatalogStore; dataDir: string }> = async (
  app,
  { catalog, dataDir },
) => {
  const variants = new PhotoVariants(dataDir);
  app.get(
    '/media/:name',
    { config: { rateLimit: false }, schema: { hide: true, params: MediaParams } },
    async (request, reply) => {
      const wanted = parseMediaName(request.params.name);
      const file = wanted && findPhotoFile(catalog.all(), wanted.hash);
      const bytes = wanted && file ? await variants.get(file, wanted.width, wanted.format) : null;
      if (!wanted || !bytes) throw new AppError('not_found', 'There is no such photo.');
      return reply
        .header('cache-control', IMMUTABLE)
        .header('x-content-type-options', 'nosniff')
        .type(PHOTO_FORMATS[wanted.format])
        .send(bytes);
    },
  );
};
