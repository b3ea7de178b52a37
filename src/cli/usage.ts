/**
 * The usage texts of every `gridcast` command, in a module of their own so that `--help` and a
 * usage mistake answer without loading the commands (the service, the store, the SDK).
 */
import { LEVELS, SUBSCRIPTION_ISOS } from '../store/keys.ts';
import { MAX_LISTED } from '../store/sources.ts';

export const SUBSCRIPTION_ISO_TEXT = SUBSCRIPTION_ISOS.join(', ');

export const STORE_NOTE = `Every command but get takes --data DIR; with DATABASE_URL=postgres://… set, they use that
PostgreSQL server instead (several serve processes may share it).`;

const SERVE_USAGE = `  gridcast serve [--port N] [--host H] [--data DIR]
      Runs the HTTP service (default port 8000 or $PORT, host 127.0.0.1 or $HOST,
      data directory ./data or $GRIDCAST_DATA_DIR). GRIDCAST_NOW=<ISO instant> freezes "now".`;

const KEYS_USAGE = `  gridcast keys create --name NAME --subscription ISO=LEVEL[@EXPIRES] [--subscription ...]
      Creates an API key; prints it alone on the last line. ISO is one of ${SUBSCRIPTION_ISO_TEXT};
      LEVEL is ${LEVELS.join(', ')}; EXPIRES an optional ISO 8601 instant.
  gridcast keys list
      One key per line: id, name, subscriptions (with expiry; ended ones marked expired), status.
      Never the key itself.
  gridcast keys revoke ID
      Revokes a key.
  gridcast keys subscribe ID ISO=LEVEL[@EXPIRES]
      Sets or changes one subscription of a key.
  gridcast keys unsubscribe ID ISO
      Removes one subscription of a key.
  gridcast keys expire ID ISO
      Ends one subscription of a key now.`;

const USAGE_USAGE = `  gridcast usage [--key ID] [--from YYYY-MM-DD] [--to YYYY-MM-DD]
      Requests and values served per UTC day, key and endpoint.`;

export const GET_USAGE = `  gridcast get GROUP [PATH PARAMETERS…] KIND [--PARAMETER VALUE …] --format json|csv|parquet|arrow -o FILE
      Downloads an endpoint into FILE (- for stdout), e.g.
        gridcast get region ercot demand continuous --start 2026-01-01 --end 2026-06-30 --format parquet -o ercot.parquet
        gridcast get plant ercot wind list --format csv -o plants.csv
        gridcast get region ercot demand skill --by month --format csv -o skill.csv
      Query parameters are options (--id, --start, --end, --model, --latest-hour, …). Windows over
      365 days are fetched in chunks saved in FILE.parts/: after a failure, the same command resumes.
      The key comes from --key or GRIDCAST_API_KEY; the service from --url or GRIDCAST_URL
      (default http://127.0.0.1:8000/v1). --timeout SECONDS bounds each request (default: none
      of its own). A progress bar shows on a terminal.`;

export const INGEST_USAGE = `  gridcast ingest FILE --source NAME --group region|plant|lmp|gas --iso ISO --metric METRIC (lmp: --type dalmp|rtlmp; gas: no --iso)
                [--catalog FILE] [--timezone ZONE] [--unit MW|GW|kW] [--replace]
                [--format csv|json|parquet|arrow] [--column NAME=TARGET]... [--value NAME] [--created-at TIME]
                [--server URL [--token TOKEN]]
      Loads a file into the stored source NAME, served as model=NAME (and /actual?source=NAME).
      Formats: CSV, JSON (records or lines), Parquet, Arrow IPC (told by --format, the file's
      name or its first bytes). Layouts, told by the header: gridcast's long layout (time_utc,
      id, value; with created_at or --created-at: forecast runs, else actuals with an optional
      published_at), gridstatus-style columns (Interval Start, Publish Time, one column per
      target: --column 'NAME=TARGET', --value NAME for the ISO's total) and EIA-930 balancing-
      authority files (actuals). Plants and price nodes may be the source's own ids; --catalog
      FILE (CSV: id,name,capacity_mw,latitude,longitude) names and places them. All or nothing;
      a run stored with other values is refused unless --replace. Exit 2 on a bad file (up to
      ${MAX_LISTED} bad rows listed).
      Without --server it writes to the store (DATABASE_URL or --data); the embedded store is
      locked while \`gridcast serve\` runs, so then send the file to the server with --server
      (admin token: --token or GRIDCAST_ADMIN_TOKEN).`;

export const SOURCES_USAGE = `  gridcast sources list | delete NAME [--server URL [--token TOKEN]]
      The stored sources (series, runs, values, span), or delete one with everything it holds.`;

/** Each command's usage, as `gridcast COMMAND --help` prints it. */
export const COMMAND_USAGE: Record<string, string> = {
  serve: `Usage:\n${SERVE_USAGE}\n${STORE_NOTE}`,
  keys: `Usage:\n${KEYS_USAGE}\n${STORE_NOTE}`,
  usage: `Usage:\n${USAGE_USAGE}\n${STORE_NOTE}`,
  get: `Usage:\n${GET_USAGE}`,
  ingest: `Usage:\n${INGEST_USAGE}\n${STORE_NOTE}`,
  sources: `Usage:\n${SOURCES_USAGE}\n${STORE_NOTE}`,
};

export const USAGE = `Usage:
${SERVE_USAGE}
${KEYS_USAGE}
${USAGE_USAGE}
${GET_USAGE}
${INGEST_USAGE}
${SOURCES_USAGE}
${STORE_NOTE}
Every command prints its own usage with --help (gridcast get --help).`;
