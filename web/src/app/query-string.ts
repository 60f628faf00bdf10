/** One value of a query parameter; numbers and booleans are sent as their text. */
export type QueryValue = string | number | boolean;

/** Parameters of a query string; a list is sent as the same name once per item. */
export type QueryParams = Readonly<Record<string, QueryValue | readonly QueryValue[] | null | undefined>>;

const isSet = (value: QueryValue | null | undefined): value is QueryValue =>
  value !== undefined && value !== null && value !== '';

/**
 * The query string of `params`, without the `?`, in their order and encoded as
 * a form (URLSearchParams: a space is `+`, `&` is `%26`). A part that is not set
 * (undefined, null or '') is left out, so a filter the user left empty is not
 * sent at all and the server applies its own default.
 */
export function queryString(params: QueryParams): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    const items: readonly (QueryValue | null | undefined)[] = Array.isArray(value) ? value : [value];
    for (const item of items) if (isSet(item)) search.append(name, String(item));
  }
  return search.toString();
}
