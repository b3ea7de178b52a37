/** A small argv parser: `--name value`, `--name=value`, repeated options, positionals. */
export interface ParsedArgs {
  positionals: string[];
  options: Map<string, string[]>;
}

/** A mistake in the command line: one line, then a pointer to the command's usage (exit code 2). */
export class UsageError extends Error {}

/** `--help` or `-h` where an option may stand: the command's usage is printed instead of running it. */
export class HelpRequested extends Error {}

export const isHelpFlag = (arg: string): boolean => arg === '--help' || arg === '-h';

export function parseArgs(argv: readonly string[], knownOptions: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const options = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (isHelpFlag(arg)) throw new HelpRequested();
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    if (!knownOptions.includes(name)) throw new UsageError(`unknown option --${name}`);
    let value: string;
    if (eq >= 0) value = arg.slice(eq + 1);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) value = argv[++i];
    else throw new UsageError(`--${name} needs a value`);
    options.set(name, [...(options.get(name) ?? []), value]);
  }
  return { positionals, options };
}

/** The single value of an option (the last one when repeated), or the fallback. */
export function optionValue(args: ParsedArgs, name: string, fallback?: string): string | undefined {
  const values = args.options.get(name);
  return values && values.length > 0 ? values[values.length - 1] : fallback;
}
