/**
 * The `gridcast` command (see USAGE in ./usage.ts). The store is the PostgreSQL server at
 * DATABASE_URL when it is set, else the embedded database in the data directory.
 *
 * Each command's module is loaded only when it runs: `--help`, a usage mistake and a small
 * command do not pay for loading the service (about 3 s of a 4-s `--help` before).
 */
import { HelpRequested, isHelpFlag, UsageError } from './args.ts';
import { COMMAND_USAGE, USAGE } from './usage.ts';

const COMMANDS: Record<string, (argv: string[]) => Promise<void>> = {
  serve: async (argv) => (await import('./serve.ts')).serveCommand(argv),
  keys: async (argv) => (await import('./keys.ts')).keysCommand(argv),
  usage: async (argv) => (await import('./keys.ts')).usageCommand(argv),
  get: async (argv) => (await import('./get.ts')).getCommand(argv),
  ingest: async (argv) => (await import('./ingest.ts')).ingestCommand(argv, (await import('./storeAccess.ts')).withStore),
  sources: async (argv) => (await import('./ingest.ts')).sourcesCommand(argv, (await import('./storeAccess.ts')).withStore),
};

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const run = command === undefined ? undefined : COMMANDS[command];
  try {
    // A help flag anywhere after the command answers with its usage before the command's module loads.
    if (run && rest.some(isHelpFlag)) throw new HelpRequested();
    if (run) await run(rest);
    else if (command === undefined || command === 'help' || isHelpFlag(command)) process.stdout.write(USAGE + '\n');
    else throw new UsageError(`unknown command '${command}' (one of ${Object.keys(COMMANDS).join(', ')})`);
  } catch (e) {
    if (e instanceof HelpRequested) {
      process.stdout.write(COMMAND_USAGE[command!] + '\n');
    } else if (e instanceof UsageError) {
      // One line for the mistake and where the right form is, not every command's usage.
      process.stderr.write(`gridcast: ${e.message}\nsee gridcast ${run ? `${command} ` : ''}--help\n`);
      process.exitCode = 2;
    } else if (e instanceof Error) {
      // Any other failure (a busy data directory, a bad setting, an unreachable database or
      // service) is one clear line; the stack is for GRIDCAST_DEBUG=1.
      process.stderr.write(`gridcast: ${e.message}\n`);
      if (process.env.GRIDCAST_DEBUG === '1' && !(e instanceof (await import('../store/embedded.ts')).DataDirBusyError))
        process.stderr.write(`${e.stack}\n`);
      process.exitCode = 1;
    } else {
      throw e;
    }
  }
}

await main(process.argv.slice(2));
