/**
 * The series and run lists of stored sources, kept between requests on the thread that holds the
 * store. A warm request for a year of a stored target otherwise asks the store, on the HTTP thread,
 * for the target's series and its 1,460 runs every time (the runs' values are cached in the
 * workers: runCache.ts).
 *
 * Nothing stale is served, also with other processes writing the same database: every lookup first
 * reads the store's change stamp (SourceStore.changeStamp, one row from a small table), and the
 * lists are dropped when it moved. The stamp is read before the list, so a list read after a
 * change that the stamp does not show yet is kept under the older stamp and dropped at the next
 * request.
 */
import type { SeriesKey, SourceStore, StoredRunRow } from '../store/sources.ts';
import { HOUR_MS } from '../time/hours.ts';
import { READ_METHODS, type SourceReader } from './reader.ts';

/** Lists kept per stamp (each a source's series of one kind, or a set of series' runs). */
const MAX_LISTS = 256;

/** Runs issued by the latest instant a Date holds: every run, whatever the request's now. */
const ALL_RUNS_MS = 8.64e15;

/** A reader like `store`, whose `series` and `runs` are answered from memory while the store has not changed. */
export function cachedListings(store: SourceReader & Pick<SourceStore, 'changeStamp'>): SourceReader {
  let stamp: string | undefined;
  const lists = new Map<string, Promise<unknown>>();
  /** The list under `key`, read by `load` when absent or when the store changed since. */
  const cached = async <T>(key: string, load: () => Promise<T>): Promise<T> => {
    const now = await store.changeStamp();
    if (now !== stamp) {
      lists.clear();
      stamp = now;
    }
    let list = lists.get(key) as Promise<T> | undefined;
    if (!list) {
      if (lists.size >= MAX_LISTS) lists.delete(lists.keys().next().value!);
      list = load();
      lists.set(key, list);
      // A failed read is not kept: the next request asks again.
      list.catch(() => lists.get(key) === list && lists.delete(key));
    }
    return list;
  };
  const reader = Object.fromEntries(
    READ_METHODS.map((m) => [m, (...args: unknown[]) => (store[m] as (...a: unknown[]) => Promise<unknown>).apply(store, args)]),
  ) as unknown as SourceReader;
  reader.series = (source: string, key: SeriesKey) =>
    cached(`series ${source} ${key.group} ${key.iso} ${key.metric}`, () => store.series(source, key));
  reader.runs = async (seriesIds: number[], nowMs: number): Promise<StoredRunRow[]> => {
    // Every run of the series is kept, and the request's now cuts it (a request's now moves with the clock).
    const all = await cached(`runs ${seriesIds.join(',')}`, () => store.runs(seriesIds, ALL_RUNS_MS));
    let n = all.length; // oldest first: the runs issued by now are a prefix
    while (n > 0 && Math.round(all[n - 1].issued * HOUR_MS) > nowMs) n--;
    return n === all.length ? all : all.slice(0, n);
  };
  return reader;
}
