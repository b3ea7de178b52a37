/**
 * Ingesting a file of forecasts or actuals into a stored source. A format (formats.ts: CSV, JSON,
 * Parquet, Arrow) reads the file, a layout (layouts.ts: gridcast's long layout, gridstatus-style
 * wide columns, EIA-930) turns it into batches of observations in the metric's unit; they are
 * checked (target, duplicates), assembled into runs and actuals, and written in batches inside
 * one transaction (store/sources.ts) — so a file is stored whole or not at all (bad rows listed,
 * up to MAX_LISTED, with line or row numbers and reasons), and memory stays flat in the file's
 * size.
 *
 * Runs are assembled one issue time at a time: the rows of one run (all its targets and hours) must
 * come together, in any order within; rows of an issue time that come back after other runs' are
 * refused (sort a file by issue time). Files gridcast exports and the usual vendor files are so.
 */
import { type IsoCode } from '../catalog/isos.ts';
import { unitOf, type MetricName } from '../catalog/metrics.ts';
import { FORECAST_MODEL_NAMES } from '../models/forecastModels.ts';
import {
  MAX_LISTED,
  type ActualInput,
  type CatalogEntry,
  type IngestOutcome,
  type IngestWriter,
  type RunInput,
  type SourceStore,
} from '../store/sources.ts';
import { HOUR_MS, formatUtcInstant } from '../time/hours.ts';
import { checkFormat, fileContent } from './formats.ts';
import { SOURCE_NAME, SOURCE_NAME_RULE } from '../sources/names.ts';
import { groupRules, seriesDays, type SeriesDays } from './groups.ts';
import { parseInstant } from './instants.ts';
import { checkColumnOptions, observations } from './layouts.ts';
import { IngestError, optionError, type LayoutContext, type Observations } from './observations.ts';
import { csvObservations } from './parallel.ts';
import { unitProblem, unitResolver } from './units.ts';

export { IngestError } from './observations.ts';

export { INGEST_GROUPS, type IngestGroup } from './groups.ts';

export interface IngestOptions {
  source: string;
  group: string;
  iso: string;
  metric: string;
  /** Zone of times without an offset (IANA name). */
  timezone?: string;
  /** Unit of the file's values when the file does not say (default: the metric's own). */
  unit?: string;
  replace: boolean;
  /** For the ingest log and messages: the file's name (its extension also tells the format). */
  origin: string;
  /** csv, json, parquet or arrow (default: told by the file's name, content type or first bytes). */
  format?: string;
  /** The upload's content type (a hint to the format). */
  contentType?: string;
  /** NAME=TARGET: a file column holding a target's values (gridstatus-style wide files). */
  columns?: string[];
  /** The column holding the values, where it is not named as the layout expects. */
  value?: string;
  /** The issue time of a file that holds one run and no issue-time column (an exported forecast). */
  createdAt?: string;
  /** What the source says about its own targets (readCatalog of --catalog FILE): stored with the data. */
  catalog?: readonly CatalogEntry[];
}

export interface IngestSummary extends IngestOutcome {
  source: string;
  kind: 'forecast' | 'actual';
  targets: number;
  values: number;
  /** First and last valid hour in the file. */
  first_valid_time: string | null;
  last_valid_time: string | null;
  seconds: number;
}

/**
 * Checks the options; returns why a target id is refused (null: accepted; groups.ts says which
 * ids each group takes) and the group's fixed ids (regions) a wide file's columns may name.
 */
export function checkOptions(o: IngestOptions): {
  refuse: (id: string) => string | null;
  targets: ReadonlySet<string>;
  days: SeriesDays;
  actuals: boolean;
} {
  if (!SOURCE_NAME.test(o.source)) {
    throw optionError('source', `--source must be ${SOURCE_NAME_RULE} (got '${o.source}')`);
  }
  if ((FORECAST_MODEL_NAMES as readonly string[]).includes(o.source)) {
    throw optionError('source', `--source '${o.source}' is the name of a synthetic model; choose another name`);
  }
  const rules = groupRules(o.group, o.iso, o.metric);
  if (o.catalog && !rules.ownTargets) {
    throw optionError('catalog', `--catalog describes own plants or price nodes; --group ${o.group} has only the catalog's targets`);
  }
  const unitProblemText = o.unit === undefined ? undefined : unitProblem(unitOf(o.metric as MetricName), o.metric, o.unit);
  if (unitProblemText) throw optionError('unit', `--unit ${unitProblemText}`);
  if (o.timezone !== undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: o.timezone });
    } catch {
      throw optionError('timezone', `--timezone must be an IANA time zone such as America/Chicago (got '${o.timezone}')`);
    }
  }
  return {
    refuse: rules.refuse(o.iso as IsoCode),
    targets: new Set(rules.ids?.(o.iso as IsoCode) ?? []),
    days: seriesDays(rules, o.iso, o.metric),
    actuals: rules.actuals,
  };
}

/** Values written per batch (runs are written whole, so a batch may hold a run more). */
const BATCH_VALUES = 200_000;

/** The widest span of valid hours one run may cover (ten years): its values are held densely. */
export const MAX_RUN_HOURS = 87_660;

/**
 * One target's values in the run being read, dense by hour from `lo` (an array per run and
 * target rather than a map entry per value), with which hours the file gave.
 */
class RunValues {
  private lo = 0;
  private values = new Float64Array(0);
  private given = new Uint8Array(0);
  min = Infinity;
  max = -Infinity;

  /** The slot of `hour`, grown to hold it; -1 when the run would span more than MAX_RUN_HOURS. */
  slot(hour: number): number {
    if (this.values.length === 0) {
      this.lo = hour;
      this.grow(hour, 256);
    } else if (hour < this.lo || hour >= this.lo + this.values.length) {
      const lo = Math.min(this.lo, hour, this.min);
      const hi = Math.max(hour, this.max);
      if (hi - lo + 1 > MAX_RUN_HOURS) return -1;
      // Room on the side it grows towards, for the hours that usually follow.
      const size = Math.min(MAX_RUN_HOURS, Math.max(2 * this.values.length, hi - lo + 1));
      this.grow(hour < this.lo ? hi - size + 1 : lo, size);
    }
    if (hour < this.min) this.min = hour;
    if (hour > this.max) this.max = hour;
    return hour - this.lo;
  }

  private grow(lo: number, size: number): void {
    const values = new Float64Array(size).fill(Number.NaN);
    const given = new Uint8Array(size);
    if (this.min <= this.max) {
      const from = this.min - this.lo;
      const to = this.max - this.lo + 1;
      values.set(this.values.subarray(from, to), this.min - lo);
      given.set(this.given.subarray(from, to), this.min - lo);
    }
    this.lo = lo;
    this.values = values;
    this.given = given;
  }

  has(slot: number): boolean {
    return this.given[slot] === 1;
  }

  get(slot: number): number {
    return this.values[slot];
  }

  set(slot: number, value: number): void {
    this.values[slot] = value;
    this.given[slot] = 1;
  }

  /** The run's values from its first hour to its last. */
  span(): { first: number; values: Float64Array } {
    return { first: this.min, values: this.values.subarray(this.min - this.lo, this.max - this.lo + 1) };
  }
}

/** One observation's place and key (its value is read apart). */
interface Observation {
  line: number;
  target: string;
  hour: number;
  stamp: number;
  /** The quantile (NaN: the point forecast). */
  quantile: number;
}

/** One target's values in the run being read: the point forecast's, and each quantile's. */
class TargetRun {
  readonly point = new RunValues();
  readonly quantiles = new Map<number, RunValues>();

  of(quantile: number): RunValues {
    if (Number.isNaN(quantile)) return this.point;
    let values = this.quantiles.get(quantile);
    if (!values) this.quantiles.set(quantile, (values = new RunValues()));
    return values;
  }

  /** The run as stored: every block over the hours any of them has (NaN where one has no value). */
  input(target: string, issuedMs: number): RunInput {
    const quantiles = [...this.quantiles.keys()].sort((a, b) => a - b);
    if (quantiles.length === 0) {
      const { first, values } = this.point.span();
      return { target, issuedMs, first, values, quantiles: [], quantileValues: [] };
    }
    const blocks = [this.point, ...quantiles.map((q) => this.quantiles.get(q)!)].filter((b) => b.min <= b.max);
    const first = Math.min(...blocks.map((b) => b.min));
    const length = Math.max(...blocks.map((b) => b.max)) - first + 1;
    const aligned = (b: RunValues) => {
      const out = new Float64Array(length).fill(Number.NaN);
      if (b.min <= b.max) out.set(b.span().values, b.min - first);
      return out;
    };
    return {
      target,
      issuedMs,
      first,
      values: aligned(this.point),
      quantiles,
      quantileValues: quantiles.map((q) => aligned(this.quantiles.get(q)!)),
    };
  }
}

/** Turns observations into complete runs or actuals and writes them in batches. */
class Assembler {
  kind: 'forecast' | 'actual' | null = null;
  values = 0;
  first = Infinity;
  last = -Infinity;
  readonly seenTargets = new Set<string>();
  /** The file's first bad rows (at most MAX_LISTED), in the order found: see `listed()`. */
  private readonly problems: { line: number; reason: string }[] = [];
  totalProblems = 0;
  /** The run being read: its issue time (ms), and each target's values. */
  private runStamp = Number.NaN;
  private run = new Map<string, TargetRun>();
  /** The target and quantile of the last row, and its values (rows of one series usually follow each other). */
  private lastTarget = '';
  private lastQuantile = Number.NaN;
  private lastValues: RunValues | undefined;
  private readonly finishedRuns = new Set<number>();
  private runs: RunInput[] = [];
  /** Actuals not yet written: (target, hour, publication) → value. */
  private actuals = new Map<string, ActualInput>();
  private pending = 0;
  private writing: Promise<void> = Promise.resolve();
  private readonly ob: Observation = { line: 0, target: '', hour: 0, stamp: 0, quantile: Number.NaN };
  /** The last target id `refuse` accepted (rows of a target usually follow each other). */
  private acceptedTarget: string | undefined;

  constructor(
    private readonly writer: IngestWriter,
    private readonly refuse: (id: string) => string | null,
    private readonly refuseHour?: (hour: number) => string | null,
  ) {}

  /**
   * A bad row. The list keeps the file's first ones by line: a batch's rows are parsed (and a bad
   * time or value found) before their targets and runs are checked here, so a bad row may be
   * found after others further on in the file.
   */
  bad(line: number, reason: string): void {
    this.totalProblems++;
    const listed = this.problems;
    if (listed.length < MAX_LISTED) {
      listed.push({ line, reason });
      return;
    }
    let last = 0;
    for (let i = 1; i < listed.length; i++) if (listed[i].line > listed[last].line) last = i;
    if (line < listed[last].line) listed[last] = { line, reason };
  }

  /** The file's first bad rows, in line (or row) order. */
  listed(): { line: number; reason: string }[] {
    return [...this.problems].sort((a, b) => a.line - b.line);
  }

  /** Takes one observation; returns a promise when it wrote a batch. */
  add(obs: Observations, i: number): Promise<void> | undefined {
    // One observation object, filled per value: millions of short-lived objects are mostly garbage collection.
    const ob = this.ob;
    ob.line = obs.line[i];
    ob.target = obs.target[i];
    ob.hour = obs.hour[i];
    ob.stamp = obs.stamp[i];
    ob.quantile = obs.quantile[i];
    if (ob.target !== this.acceptedTarget) {
      const refused = this.refuse(ob.target);
      if (refused) {
        this.bad(ob.line, refused);
        return undefined;
      }
      this.acceptedTarget = ob.target;
    }
    const refusedHour = this.refuseHour?.(ob.hour);
    if (refusedHour) {
      this.bad(ob.line, refusedHour);
      return undefined;
    }
    const value = obs.value[i];
    if (this.kind === 'forecast') {
      let wrote: Promise<void> | undefined;
      if (ob.stamp !== this.runStamp) {
        if (this.finishedRuns.has(ob.stamp)) {
          this.bad(
            ob.line,
            `rows of the run issued ${formatUtcInstant(ob.stamp)} come again after rows of other runs: ` +
              'the rows of a run must come together (sort the file by issue time)',
          );
          return undefined;
        }
        wrote = this.closeRun();
        this.runStamp = ob.stamp;
      }
      let values = ob.target === this.lastTarget && Object.is(ob.quantile, this.lastQuantile) ? this.lastValues : undefined;
      if (!values) {
        let run = this.run.get(ob.target);
        if (!run) {
          this.run.set(ob.target, (run = new TargetRun()));
          this.seenTargets.add(ob.target);
        }
        values = run.of(ob.quantile);
      }
      this.lastTarget = ob.target;
      this.lastQuantile = ob.quantile;
      this.lastValues = values;
      const slot = values.slot(ob.hour);
      if (slot < 0) {
        this.bad(
          ob.line,
          `the run issued ${formatUtcInstant(ob.stamp)} spans more than ${MAX_RUN_HOURS} hours (10 years) for ${ob.target}`,
        );
        return wrote;
      }
      const scope = Number.isNaN(ob.quantile) ? 'same run' : `same run, quantile ${ob.quantile}`;
      if (!this.keep(ob, values.has(slot) ? values.get(slot) : undefined, value, scope)) return wrote;
      values.set(slot, value);
      return wrote;
    }
    const key = `${ob.target}\u0000${ob.hour}\u0000${ob.stamp}`;
    const before = this.actuals.get(key);
    if (!this.keep(ob, before?.value, value, 'same publication')) return undefined;
    if (!before && !Number.isNaN(value)) {
      this.actuals.set(key, { target: ob.target, validHour: ob.hour, publishedMs: ob.stamp, value });
      if (++this.pending >= BATCH_VALUES) return this.flushActuals();
    }
    return undefined;
  }

  /** Counts a first value of (target, hour) in its run or publication; false (a bad row) for a second, different one. */
  private keep(ob: Observation, before: number | undefined, value: number, scope: string): boolean {
    if (before !== undefined) {
      if (!Object.is(before, value)) {
        this.bad(ob.line, `a second value for ${ob.target} at ${formatUtcInstant(ob.hour * HOUR_MS)} (${scope}) differs from the first`);
        return false;
      }
      return true;
    }
    this.values++;
    if (this.kind === 'actual') this.seenTargets.add(ob.target);
    if (ob.hour < this.first) this.first = ob.hour;
    if (ob.hour > this.last) this.last = ob.hour;
    return true;
  }

  private closeRun(): Promise<void> | undefined {
    if (Number.isNaN(this.runStamp)) return undefined;
    for (const [target, run] of this.run) {
      const input = run.input(target, this.runStamp);
      this.runs.push(input);
      this.pending += input.values.length * (1 + input.quantiles.length);
    }
    this.finishedRuns.add(this.runStamp);
    this.run = new Map();
    this.lastTarget = '';
    this.lastValues = undefined;
    return this.pending >= BATCH_VALUES ? this.flushRuns() : undefined;
  }

  /**
   * Starts writing a batch once the write before it is done, and returns that earlier write: the
   * file is read on while the database stores the batch before (on PostgreSQL, another process).
   */
  private write(batch: () => Promise<void>): Promise<void> {
    const before = this.writing;
    this.writing = before.then(batch);
    this.writing.catch(() => {}); // its failure is met by the next write, finish() or settled()
    return before;
  }

  // Once a row is bad nothing will be stored: the rest of the file is only checked, not written.
  private flushRuns(): Promise<void> {
    const runs = this.runs;
    this.runs = [];
    this.pending = 0;
    return this.totalProblems === 0 && runs.length ? this.write(() => this.writer.runs(runs)) : this.writing;
  }

  private flushActuals(): Promise<void> {
    const actuals = [...this.actuals.values()];
    this.actuals = new Map();
    this.pending = 0;
    return this.totalProblems === 0 && actuals.length ? this.write(() => this.writer.actuals(actuals)) : this.writing;
  }

  async finish(): Promise<void> {
    await this.closeRun();
    await this.flushRuns();
    await this.flushActuals();
    await this.writing;
  }

  /** Waits for the write in flight, whatever its outcome (before the transaction ends on an error). */
  settled(): Promise<void> {
    return this.writing.catch(() => {});
  }
}

/**
 * Ingests a file (a stream of bytes in any input format and layout) into the store: all of it or
 * nothing.
 */
export async function ingestFile(store: SourceStore, input: AsyncIterable<Uint8Array | string>, o: IngestOptions): Promise<IngestSummary> {
  const started = performance.now();
  const { refuse, targets, days, actuals } = checkOptions(o);
  checkFormat(o.format);
  const columns = checkColumnOptions(o.columns ?? []);
  if (o.createdAt !== undefined && typeof parseInstant(o.createdAt, undefined) === 'string') {
    throw optionError(
      'created_at',
      `--created-at must be the run's issue time with an offset, such as 2026-06-01T06:00:00Z (got '${o.createdAt}')`,
    );
  }
  const { result: asm, outcome } = await store.ingest(
    { source: o.source, group: o.group, iso: o.iso, metric: o.metric, replace: o.replace, origin: o.origin, catalog: o.catalog },
    async (writer) => {
      const asm = new Assembler(writer, refuse, days.refuseHour);
      const bad = (line: number, reason: string) => asm.bad(line, reason);
      const metadata: Record<string, string> = {};
      const file = await fileContent(
        input,
        { format: o.format, filename: o.origin, contentType: o.contentType },
        { origin: o.origin, metadata, bad },
      );
      const ctx: LayoutContext = {
        origin: o.origin,
        iso: o.iso,
        metric: o.metric,
        targets,
        refuse,
        timezone: o.timezone,
        columns,
        value: o.value,
        createdAt: o.createdAt,
        metadata,
        scale: unitResolver(unitOf(o.metric as MetricName), o.metric, o.unit),
        bad,
        knownAt: days.knownAt,
        kind: (kind) => {
          if (kind === 'actual' && !actuals) {
            throw new IngestError(
              `${o.origin}: the file holds actuals (no created_at column), and --group ${o.group} serves forecasts only (no /actual endpoint)`,
            );
          }
          asm.kind = kind;
        },
      };
      try {
        const read =
          file.format === 'csv'
            ? csvObservations(file.bytes, ctx, o, days.dayZone, (n) => (asm.totalProblems += n))
            : observations(file.content, ctx);
        for await (const batch of read) {
          for (let i = 0; i < batch.length; i++) {
            const wrote = asm.add(batch, i);
            if (wrote) await wrote;
          }
        }
      } catch (e) {
        await asm.settled();
        if (e instanceof IngestError && e.problems.length === 0 && asm.totalProblems > 0) {
          // The file could not be read on: the bad rows found so far are listed with the reason.
          throw new IngestError(e.message, asm.listed(), asm.totalProblems, undefined, file.position);
        }
        throw e;
      }
      await asm.finish();
      if (asm.totalProblems === 0 && asm.values === 0) throw new IngestError(`${o.origin}: the file has no rows of values`);
      if (asm.totalProblems > 0) {
        throw new IngestError(
          `${o.origin}: ${asm.totalProblems} bad row(s); nothing was stored`,
          asm.listed(),
          asm.totalProblems,
          undefined,
          file.position,
        );
      }
      return asm;
    },
  );
  return {
    source: o.source,
    kind: asm.kind ?? 'forecast',
    ...outcome,
    targets: asm.seenTargets.size,
    values: asm.values,
    first_valid_time: Number.isFinite(asm.first) ? formatUtcInstant(asm.first * HOUR_MS) : null,
    last_valid_time: Number.isFinite(asm.last) ? formatUtcInstant(asm.last * HOUR_MS) : null,
    seconds: Math.round((performance.now() - started) / 10) / 100,
  };
}

/** The one-line summary of an ingest (CLI and logs). */
export function describeIngest(s: IngestSummary): string {
  const changed = s.runsAdded + s.runsReplaced + s.actualsAdded + s.actualsReplaced + (s.catalogEntries ?? 0);
  const what =
    s.kind === 'forecast'
      ? `runs: ${s.runsAdded} added, ${s.runsReplaced} replaced, ${s.runsUnchanged} unchanged`
      : `actuals: ${s.actualsAdded} added, ${s.actualsReplaced} replaced, ${s.actualsUnchanged} unchanged`;
  const span = s.first_valid_time ? `, ${s.first_valid_time} to ${s.last_valid_time}` : '';
  const catalog = s.catalogEntries === undefined ? '' : `; catalog: ${s.catalogEntries} entries added or changed`;
  return `${s.source}: ${changed === 0 ? 'nothing changed (already stored); ' : ''}${what}; ${s.targets} target(s), ${s.values} value(s)${span}${catalog}; ${s.seconds} s`;
}
