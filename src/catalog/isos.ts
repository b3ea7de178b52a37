/**
 * The ISOs the service covers. Each ISO's facts live in its profile (isos/<iso>.ts); this list
 * fixes their order, the order the public API's enum lists them in. Every per-ISO table and
 * every list of ISOs (API enums, admin subscriptions, CLI messages) derives from it.
 */
import { caiso } from './isos/caiso.ts';
import { ercot } from './isos/ercot.ts';
import { isone } from './isos/isone.ts';
import { miso } from './isos/miso.ts';
import { nyiso } from './isos/nyiso.ts';
import type { IsoProfile } from './isos/profile.ts';
import { pjm } from './isos/pjm.ts';
import { spp } from './isos/spp.ts';

const PROFILES = [pjm, miso, spp, ercot, caiso, nyiso, isone] as const;

export type IsoCode = (typeof PROFILES)[number]['code'];
export const ISO_CODES: readonly IsoCode[] = PROFILES.map((p) => p.code);

export interface IsoInfo {
  code: IsoCode;
  name: string;
  /** IANA zone of the ISO's operating clock: local days, latest_hour and time_local use it. */
  timezone: string;
}

/** Every ISO's profile by code. */
export const ISO_PROFILES = Object.fromEntries(PROFILES.map((p) => [p.code, p])) as Readonly<Record<IsoCode, IsoProfile<IsoCode>>>;

/** The ISO's fixed number (IsoProfile.isoNumber): what its ids and random streams are keyed by, never its place in ISO_CODES. */
export function isoNumber(iso: IsoCode): number {
  return ISO_PROFILES[iso].isoNumber;
}

/** The ISO codes by fixed number: the order of every computation whose result must not depend on the order of ISO_CODES. */
export const ISO_CODES_BY_NUMBER: readonly IsoCode[] = [...ISO_CODES].sort((a, b) => isoNumber(a) - isoNumber(b));

/** A per-ISO table read from the profiles, e.g. isoTable((p) => p.demand). */
export function isoTable<T>(select: (profile: IsoProfile<IsoCode>) => T): Readonly<Record<IsoCode, T>> {
  return Object.fromEntries(ISO_CODES.map((iso) => [iso, select(ISO_PROFILES[iso])])) as Record<IsoCode, T>;
}

/**
 * MISO's market clock is EST all year, but the public service labels MISO data with
 * America/Chicago (reference isoview-api.md §3.1); we follow the public service.
 */
export const ISOS: Readonly<Record<IsoCode, IsoInfo>> = isoTable((p) => ({ code: p.code, name: p.name, timezone: p.timezone }));

export function isIsoCode(s: string): s is IsoCode {
  return (ISO_CODES as readonly string[]).includes(s);
}
