/**
 * The largest request (issue "one request can take the service down"): every MISO H3 cell at
 * resolution 5 over a year of continuous demand, in each format and layout, one after another on
 * one `gridcast serve` process. For each: time to the first byte, whole time, bytes, and the
 * server's peak RSS (sampled from /proc every 100 ms), next to JSON's in the same run.
 *
 * A download is cut after LIMIT_S (the long layouts are tens of GB of text): then its figures are
 * those at the cut, and it says so.
 *
 *   node --import tsx bench/largest.ts [--formats json,csv,...] [--layouts wide,long]
 */
import fs from 'node:fs';
import http from 'node:http';
import { startServe, type BenchServer } from './serve.ts';

const PATH = '/v1/cells/miso/demand/continuous?resolution=5&start=2026-01-01&end=2026-11-20';
const NOW = '2026-11-21T12:00:00Z';
const LIMIT_S = Number(process.env.BENCH_LARGEST_LIMIT_S ?? 120);
const ALL_FORMATS = ['json', 'csv', 'parquet', 'arrow'];

export interface Download {
  format: string;
  layout: string;
  status: number;
  firstByteMs: number;
  totalMs: number;
  bytes: number;
  peakRssMb: number;
  /** Cut at LIMIT_S before the end. */
  cut: boolean;
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

function download(server: BenchServer, format: string, layout: string, limitS = LIMIT_S): Promise<Download> {
  const url = new URL(`${server.url}${PATH}&format=${format}&layout=${layout}`);
  const started = performance.now();
  let peak = rssMb(server.pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid))), 100);
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { 'x-api-key': server.key } }, (res) => {
      let firstByteMs = -1;
      let bytes = 0;
      const finish = (cut: boolean) => {
        clearInterval(sampler);
        clearTimeout(limit);
        resolve({
          format,
          layout,
          status: res.statusCode ?? 0,
          firstByteMs: Math.round(firstByteMs),
          totalMs: Math.round(performance.now() - started),
          bytes,
          peakRssMb: Math.round(peak),
          cut,
        });
      };
      const limit = setTimeout(() => {
        res.destroy();
        finish(true);
      }, limitS * 1000);
      res.on('data', (chunk: Buffer) => {
        if (firstByteMs < 0) firstByteMs = performance.now() - started;
        bytes += chunk.length;
      });
      res.on('end', () => finish(false));
      res.on('error', () => {});
    });
    req.on('error', reject);
  });
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A download abandoned part way (abandonAfterS): the server's RSS before it and ABANDON_SETTLE_S after. */
export interface Abandoned {
  format: string;
  abandonAfterS: number;
  rssBeforeMb: number;
  rssAfterMb: number;
}
/**
 * When a download is abandoned: after ABANDON_AFTER_S, or half the time the whole wide download of
 * that format took in this run if that is sooner (a download that ends before the client leaves is
 * not abandoned: the wide ones now take 2–4 s).
 */
const ABANDON_AFTER_S = 5;
const ABANDON_SETTLE_S = 10;

export async function largestFigures(options: { formats?: string[]; layouts?: string[] } = {}): Promise<{
  path: string;
  downloads: Download[];
  abandoned: Abandoned[];
  baseRssMb: number;
}> {
  const server = await startServe({ env: { GRIDCAST_NOW: NOW } });
  try {
    // Warm the cell catalog and the workers with a small request of the same group.
    await settle(5000);
    const warm = new URL(`${server.url}/v1/cells/miso/demand/continuous?resolution=5&start=2026-11-01&end=2026-11-02`);
    await fetch(warm, { headers: { 'x-api-key': server.key } }).then((r) => r.arrayBuffer());
    const baseRssMb = Math.round(rssMb(server.pid));
    const downloads: Download[] = [];
    for (const layout of options.layouts ?? ['wide', 'long']) {
      for (const format of options.formats ?? ALL_FORMATS) {
        const d = await download(server, format, layout);
        downloads.push(d);
        process.stderr.write(
          `largest ${layout} ${format}: ${d.status} first byte ${d.firstByteMs} ms, ${d.cut ? 'cut at' : 'whole in'} ${d.totalMs} ms, ` +
            `${Math.round(d.bytes / 1e6)} MB, peak RSS ${d.peakRssMb} MB\n`,
        );
        await settle(3000);
      }
    }
    // A client that goes away: within ABANDON_SETTLE_S the work has stopped and memory is back.
    const abandoned: Abandoned[] = [];
    for (const format of options.formats ?? ALL_FORMATS) {
      const whole = downloads.find((d) => d.format === format && d.layout === 'wide' && !d.cut);
      const abandonAfterS = Math.min(ABANDON_AFTER_S, whole ? Math.round(whole.totalMs / 200) / 10 : ABANDON_AFTER_S);
      const rssBeforeMb = Math.round(rssMb(server.pid));
      await download(server, format, 'wide', abandonAfterS);
      await settle(ABANDON_SETTLE_S * 1000);
      abandoned.push({ format, abandonAfterS, rssBeforeMb, rssAfterMb: Math.round(rssMb(server.pid)) });
      process.stderr.write(`abandoned wide ${format} after ${abandonAfterS} s: RSS ${rssBeforeMb} → ${abandoned.at(-1)!.rssAfterMb} MB\n`);
    }
    return { path: PATH, downloads, abandoned, baseRssMb };
  } finally {
    await server.stop();
  }
}

/** One line per download: its figures next to JSON's of the same layout in the same run. */
export function largestLines(result: Awaited<ReturnType<typeof largestFigures>>): string[] {
  const abandoned = result.abandoned.map(
    (a) =>
      `${a.format} after ${a.abandonAfterS} s ${a.rssBeforeMb} → ${a.rssAfterMb} MB (${a.rssAfterMb - a.rssBeforeMb >= 0 ? '+' : ''}${a.rssAfterMb - a.rssBeforeMb})`,
  );
  const lines = result.downloads.map((d) => {
    const json = result.downloads.find((j) => j.format === 'json' && j.layout === d.layout);
    const ratio = json && !json.cut && !d.cut ? ` (${(d.totalMs / json.totalMs).toFixed(2)}× JSON)` : '';
    return (
      `largest ${d.layout} ${d.format}: ${d.status}, first byte ${d.firstByteMs} ms, ${d.cut ? `cut at ${LIMIT_S} s after` : 'whole in'} ` +
      `${d.totalMs} ms${ratio}, ${Math.round(d.bytes / 1e6)} MB, peak RSS ${d.peakRssMb} MB (at rest ${result.baseRssMb} MB)`
    );
  });
  return [...lines, `largest, abandoned part way, RSS ${ABANDON_SETTLE_S} s later: ${abandoned.join('; ')}`];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1].split(',') : undefined;
  };
  const result = await largestFigures({ formats: arg('--formats'), layouts: arg('--layouts') });
  process.stdout.write(largestLines(result).join('\n') + '\n');
}
