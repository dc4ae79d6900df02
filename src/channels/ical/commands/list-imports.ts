import { type ImportRow, icalImportsRepository as repo } from '../ical-imports.repository.ts';
import type { IcalContext } from './ical-context.ts';

/** The hotel's imports, oldest first, each with its last fetch. */
export function listImports(ctx: Pick<IcalContext, 'db'>, hotelId: string): Promise<ImportRow[]> {
  return repo.importsOf(ctx.db, hotelId);
}
