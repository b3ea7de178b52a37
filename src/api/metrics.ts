/**
 * Prometheus metrics of one API process, in the text exposition format (version 0.0.4):
 * request counts and latency by route (the route's pattern, never the raw URL, so label
 * cardinality stays bounded) and status, requests in flight, heavy requests in flight and
 * refused, and the process's memory.
 */

/** Latency buckets (seconds): small requests take milliseconds, a year of every plant seconds. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

export class Metrics {
  private readonly requests = new Map<string, number>();
  private readonly latency = new Map<string, Histogram>();
  inFlight = 0;
  heavyInFlight = 0;
  heavyRejected = 0;
  /** Gauges read from elsewhere when rendered (e.g. the compute pool's). */
  private readonly probes: { name: string; help: string; read: () => number; type: 'gauge' | 'counter' }[] = [];

  /** A value read when rendered (e.g. the compute pool's). */
  addGauge(name: string, help: string, read: () => number, type: 'gauge' | 'counter' = 'gauge'): void {
    this.probes.push({ name, help, read, type });
  }

  /** Records a finished request. */
  observe(route: string, method: string, status: number, seconds: number): void {
    const key = `route="${escapeLabel(route)}",method="${method}",status="${status}"`;
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
    const lkey = `route="${escapeLabel(route)}",method="${method}"`;
    let h = this.latency.get(lkey);
    if (!h) this.latency.set(lkey, (h = { counts: BUCKETS.map(() => 0), sum: 0, count: 0 }));
    BUCKETS.forEach((b, i) => {
      if (seconds <= b) h.counts[i]++;
    });
    h.sum += seconds;
    h.count++;
  }

  /** The exposition text. */
  render(): string {
    const lines: string[] = [];
    lines.push('# HELP gridcast_http_requests_total HTTP requests by route pattern, method and status.');
    lines.push('# TYPE gridcast_http_requests_total counter');
    for (const [labels, n] of this.requests) lines.push(`gridcast_http_requests_total{${labels}} ${n}`);
    lines.push('# HELP gridcast_http_request_duration_seconds Time to the last byte of the response, by route pattern and method.');
    lines.push('# TYPE gridcast_http_request_duration_seconds histogram');
    for (const [labels, h] of this.latency) {
      BUCKETS.forEach((b, i) => lines.push(`gridcast_http_request_duration_seconds_bucket{${labels},le="${b}"} ${h.counts[i]}`));
      lines.push(`gridcast_http_request_duration_seconds_bucket{${labels},le="+Inf"} ${h.count}`);
      lines.push(`gridcast_http_request_duration_seconds_sum{${labels}} ${h.sum}`);
      lines.push(`gridcast_http_request_duration_seconds_count{${labels}} ${h.count}`);
    }
    const gauge = (name: string, help: string, value: number, type = 'gauge') => {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, `${name} ${value}`);
    };
    gauge('gridcast_http_requests_in_flight', 'Requests being handled now.', this.inFlight);
    gauge(
      'gridcast_heavy_requests_in_flight',
      'Heavy requests (by size, see GRIDCAST_HEAVY_VALUES) admitted and not yet ended, computing or waiting for their clients.',
      this.heavyInFlight,
    );
    gauge(
      'gridcast_heavy_requests_rejected_total',
      'Heavy requests refused with 503 because too many were in flight.',
      this.heavyRejected,
      'counter',
    );
    for (const p of this.probes) gauge(p.name, p.help, p.read(), p.type);
    const mem = process.memoryUsage();
    gauge('process_resident_memory_bytes', 'Resident memory size in bytes.', mem.rss);
    gauge('nodejs_heap_used_bytes', 'V8 heap in use, bytes.', mem.heapUsed);
    return lines.join('\n') + '\n';
  }
}
