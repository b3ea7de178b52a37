/** The seven ISOs the service covers, in the order the public API's enum lists them. */
export const ISO_CODES = ['pjm', 'miso', 'spp', 'ercot', 'caiso', 'nyiso', 'isone'] as const;
export type IsoCode = (typeof ISO_CODES)[number];

export interface IsoInfo {
  code: IsoCode;
  name: string;
  /** IANA zone of the ISO's operating clock: local days, latest_hour and time_local use it. */
  timezone: string;
}

/**
 * MISO's market clock is EST all year, but the public service labels MISO data with
 * America/Chicago (reference isoview-api.md §3.1); we follow the public service.
 */
export const ISOS: Record<IsoCode, IsoInfo> = {
  pjm: { code: 'pjm', name: 'PJM Interconnection', timezone: 'America/New_York' },
  miso: { code: 'miso', name: 'Midcontinent ISO', timezone: 'America/Chicago' },
  spp: { code: 'spp', name: 'Southwest Power Pool', timezone: 'America/Chicago' },
  ercot: { code: 'ercot', name: 'Electric Reliability Council of Texas', timezone: 'America/Chicago' },
  caiso: { code: 'caiso', name: 'California ISO', timezone: 'America/Los_Angeles' },
  nyiso: { code: 'nyiso', name: 'New York ISO', timezone: 'America/New_York' },
  isone: { code: 'isone', name: 'ISO New England', timezone: 'America/New_York' },
};

export function isIsoCode(s: string): s is IsoCode {
  return (ISO_CODES as readonly string[]).includes(s);
}
