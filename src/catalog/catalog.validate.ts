import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CatalogFile, type Hotel } from './catalog.schema.ts';
import { checkPhotoFiles } from './photos/photo-files.ts';
import { withDefaults } from './validate/defaults.ts';
import { crossReferenceProblems } from './validate/hotel-problems.ts';
import { schemaProblems, unknownProperties } from './validate/schema-problems.ts';

/** A catalogue that cannot be loaded; `problems` holds one `path: message` entry per fault found. */
export class CatalogError extends Error {
  override name = 'CatalogError';
  readonly problems: string[];

  constructor(message: string, problems: string[] = [], options?: ErrorOptions) {
    super(message, options);
    this.problems = problems;
  }
}

export type LoadedCatalog = { hotels: Hotel[]; warnings: string[] };

/** Lines shown in an error message before the rest is summarised; `problems` keeps them all. */
const MESSAGE_LINES = 50;

/**
 * Validates a parsed catalogue (API.md section 6) and returns its hotels with defaults applied.
 * The shape is checked first and, once it holds, the ids and references between them; each stage
 * gathers all its faults into one CatalogError so a hotel can fix its file in one go. Unknown
 * properties are ignored, each with a warning. `source` names the file in the error message.
 */
export function parseCatalog(json: unknown, source?: string): LoadedCatalog {
  const problems = schemaProblems(json);
  if (problems.length > 0) throw invalidCatalog(problems, source);
  const file = json as CatalogFile;
  const warnings = [...unknownProperties(CatalogFile, file, '')];
  problems.push(...crossReferenceProblems(file, warnings));
  if (problems.length > 0) throw invalidCatalog(problems, source);
  return { hotels: file.hotels.map(withDefaults), warnings };
}

/**
 * Reads and validates a catalogue file, and checks its photo files (relative to its folder); every
 * failure is a CatalogError naming the file (and each bad photo file).
 */
export async function loadCatalogFile(file: string): Promise<LoadedCatalog> {
  const loaded = await readCatalogFile(file);
  const problems = await checkPhotoFiles(loaded.hotels, path.dirname(path.resolve(file)));
  if (problems.length > 0) throw invalidCatalog(problems, file);
  return loaded;
}

async function readCatalogFile(path: string): Promise<LoadedCatalog> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new CatalogError(`Cannot read catalogue file ${path}: ${reason(cause)}`, [], { cause });
  }
  let json: unknown;
  try {
    // Editors on some systems save JSON with a byte-order mark, which JSON.parse refuses.
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (cause) {
    throw new CatalogError(`Catalogue file ${path} is not valid JSON: ${reason(cause)}`, [], { cause });
  }
  return parseCatalog(json, path);
}

function reason(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

function invalidCatalog(problems: string[], source: string | undefined): CatalogError {
  const title = source ? `Catalogue file ${source} is invalid` : 'Invalid catalogue';
  const shown = problems.slice(0, MESSAGE_LINES);
  const more = problems.length - shown.length;
  const lines = more > 0 ? [...shown, `… and ${more} more`] : shown;
  const count = `${problems.length} problem${problems.length === 1 ? '' : 's'}`;
  return new CatalogError(`${title} (${count}):\n${lines.join('\n')}`, problems);
}
