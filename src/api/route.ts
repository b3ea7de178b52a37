/**
 * A route of the public API, declared once: the same declaration drives the HTTP route,
 * parameter validation, authorisation and the OpenAPI document.
 */
import type { IsoCode } from '../catalog/isos.ts';
import type { Frame } from '../query/frame.ts';
import type { KeyInfo, Level } from '../store/keys.ts';
import type { Clock } from '../time/clock.ts';
import type { WeatherWorld } from '../world/weather/world.ts';
import type { SourceReader } from '../sources/reader.ts';
import type { ParamSpec, ParamValue } from './params.ts';

export interface RouteContext {
  params: Record<string, ParamValue>;
  /** The raw query parameters (for echoing inputs in errors). */
  raw: Record<string, string | string[] | undefined>;
  key: KeyInfo;
  nowMs: number;
  world: WeatherWorld;
  /** Aborted when the client goes away: long computations stop. */
  signal?: AbortSignal;
  /** The stored (ingested) sources, read through the store (sources/reader.ts). */
  sources?: SourceReader;
  /**
   * Hands `task` to another compute runner (the route's `help`) if one is idle: resolves to its
   * result, or to null when none is (the caller computes it itself). Absent without workers.
   */
  helper?: (task: unknown) => Promise<unknown>;
}

export interface RouteDef {
  /** Path under /v1 in OpenAPI form, e.g. /plant/{iso}/{metric}/continuous. */
  path: string;
  /** FastAPI-style function name; the operationId is derived from it. */
  name: string;
  summary: string;
  description: string;
  tag: string;
  /**
   * The subscription level the route needs for the ISO in its path; a route without an `iso`
   * path parameter (gas) needs it for any one ISO.
   */
  level: Level;
  params: readonly ParamSpec[];
  /** Answers from the catalog or the service's own state, not the synthetic world: served also with GRIDCAST_WORLD=off. */
  catalog?: true;
  /** `model` may name a stored source (and the OpenAPI document lists the sources that exist). */
  storedModels?: true;
  /** Reads the stored sources whatever its parameters (status): answered fresh, never from a cache. */
  readsStore?: true;
  /** Serves an ISO's actuals beside other data (summary): from the stored sources GRIDCAST_ACTUAL_SOURCE names, if any. */
  actualsOfIso?: true;
  /** A TimeseriesResponse, or an array of records of the named schema. */
  response: { kind: 'timeseries' } | { kind: 'records'; schema: string };
  handle(ctx: RouteContext): Frame | unknown[] | Promise<Frame | unknown[]>;
  /**
   * Computes, on another compute runner, the part `task` of a request whose `handle` asked for
   * it through ctx.helper; `transfer`: buffers of the result to move rather than copy.
   */
  help?(ctx: RouteContext, task: unknown): Promise<{ result: unknown; transfer: ArrayBuffer[] }>;
}

/** ISO the request is about (path parameter `iso`). */
export function isoOf(ctx: { params: Record<string, ParamValue> }): IsoCode {
  return ctx.params.iso as IsoCode;
}

export interface AppDeps {
  clock: Clock;
  world: WeatherWorld;
}
