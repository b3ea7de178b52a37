/**
 * Errors a query finds in a request that passed parameter validation (an unknown id,
 * a window that is too long or holds no data). They travel up as 422 responses whose
 * items have the shape of pydantic's own errors, so clients parse them the same way.
 */
export interface QueryErrorItem {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
}

export class QueryError extends Error {
  constructor(readonly items: QueryErrorItem[]) {
    super(items.map((i) => i.msg).join('; '));
  }
}

/** A pydantic-style `value_error` for a query parameter. */
export function queryValueError(param: string, input: unknown, message: string): QueryError {
  return new QueryError([{ type: 'value_error', loc: ['query', param], msg: `Value error, ${message}`, input }]);
}
