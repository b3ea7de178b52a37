/**
 * A source's catalog file (`--catalog FILE`): what it says about its own plants or price nodes.
 * CSV with a header: `id` and any of `name`, `capacity_mw`, `latitude`, `longitude` (other
 * columns are ignored, so an export with more fields serves as it is). Empty fields are unknown;
 * a missing name is the id. The file is small (one line per target) and read whole, checked
 * like a data file: every bad line listed, nothing stored.
 */
import type { CatalogEntry } from '../store/sources.ts';
import { MAX_LISTED } from '../store/sources.ts';
import { csvRecords, CsvError } from './csv.ts';
import { parseValue } from './instants.ts';
import { IngestError } from './observations.ts';

/** More entries than any team's own fleet or node list; beyond it a wrong file was given. */
export const MAX_CATALOG_ENTRIES = 100_000;

const NUMBER_COLUMNS = [
  { column: 'capacity_mw', min: 0, max: 100_000, exclusiveMin: true },
  { column: 'latitude', min: -90, max: 90, exclusiveMin: false },
  { column: 'longitude', min: -180, max: 180, exclusiveMin: false },
] as const;

/**
 * The entries of a catalog file; `refuse` says why an id is not a target of the group (null: it
 * is). `origin` names the file in messages.
 */
export async function readCatalog(
  input: AsyncIterable<Uint8Array | string>,
  origin: string,
  refuse: (id: string) => string | null,
): Promise<CatalogEntry[]> {
  const problems: { line: number; reason: string }[] = [];
  let total = 0;
  const bad = (line: number, reason: string) => {
    total++;
    if (problems.length < MAX_LISTED) problems.push({ line, reason });
  };
  const entries = new Map<string, CatalogEntry>();
  let header: string[] | null = null;
  try {
    for await (const { line, fields } of csvRecords(input)) {
      if (!header) {
        header = fields.map((f) => f.trim());
        if (!header.includes('id')) {
          throw new IngestError(
            `${origin}: the catalog's header lacks id (a catalog has id and any of name, capacity_mw, latitude, longitude)`,
          );
        }
        continue;
      }
      if (fields.length !== header.length) {
        bad(line, `${fields.length} fields where the header has ${header.length}`);
        continue;
      }
      const field = (name: string) => {
        const i = header!.indexOf(name);
        return i < 0 ? '' : fields[i].trim();
      };
      const id = field('id');
      const refused = refuse(id);
      if (refused) {
        bad(line, refused);
        continue;
      }
      if (entries.has(id)) {
        bad(line, `id: '${id}' is listed twice`);
        continue;
      }
      const name = field('name') || id;
      if (name.length > 200) {
        bad(line, 'name: longer than 200 characters');
        continue;
      }
      const entry: CatalogEntry = { target: id, name, capacity_mw: null, latitude: null, longitude: null };
      let ok = true;
      for (const { column, min, max, exclusiveMin } of NUMBER_COLUMNS) {
        const v = parseValue(field(column));
        const inRange = typeof v === 'number' && (Number.isNaN(v) || ((exclusiveMin ? v > min : v >= min) && v <= max));
        if (!inRange) {
          bad(line, `${column}: ${typeof v === 'string' ? v : `${v} is not in ${exclusiveMin ? '(' : '['}${min}, ${max}]`}`);
          ok = false;
          break;
        }
        if (!Number.isNaN(v)) entry[column] = v;
      }
      if (!ok) continue;
      if (entries.size >= MAX_CATALOG_ENTRIES) throw new IngestError(`${origin}: a catalog has at most ${MAX_CATALOG_ENTRIES} entries`);
      entries.set(id, entry);
    }
  } catch (e) {
    if (e instanceof CsvError) bad(e.line, e.message);
    else throw e;
  }
  if (!header) throw new IngestError(`${origin}: the catalog is empty`);
  if (total > 0) throw new IngestError(`${origin}: ${total} bad line(s) in the catalog; nothing was stored`, problems, total);
  return [...entries.values()];
}
