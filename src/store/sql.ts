/**
 * The narrow SQL interface the rest of the store is written against. The embedded
 * PGlite store implements it today; a PostgreSQL pool can implement it with the same SQL.
 */
export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs several statements without parameters (migrations). */
  exec(text: string): Promise<void>;
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * Whether a Buffer parameter travels as binary bytea (node-postgres sends it so, several times
   * faster than hex text the server decodes); PGlite converts a Uint8Array a byte at a time in
   * JavaScript, so hex text is its faster path.
   */
  readonly binaryBytea?: boolean;
}
