/** Any JSON value: what the fakes read from a request and write back. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
