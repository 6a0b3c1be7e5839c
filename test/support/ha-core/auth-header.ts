/**
 * homeassistant/components/mcp/auth.py, `AuthenticateHeader.from_header`:
 * `re.search` for `resource_metadata="..."` and `scope="..."` anywhere in the
 * `WWW-Authenticate` value. Only quoted values match; the URL is joined onto
 * the MCP URL (yarl `URL.join`, RFC 3986 like WHATWG for http URLs); scopes
 * are split on single spaces, as Python's `str.split(" ")` does.
 */
export const RESOURCE_METADATA_REGEXP = /resource_metadata="([^"]+)"/;
export const SCOPES_REGEXP = /scope="([^"]+)"/;

export interface AuthenticateHeader {
  resourceMetadataUrl: string;
  scopes: string[] | null;
}

/** auth.py `AuthenticateHeader.from_header`; null where HA returns None (no header, or no resource_metadata). */
export function authenticateHeaderFrom(url: string, response: Response): AuthenticateHeader | null {
  const header = response.headers.get("www-authenticate");
  const match = header === null ? null : RESOURCE_METADATA_REGEXP.exec(header);
  if (!header || !match) return null;
  const scope = SCOPES_REGEXP.exec(header);
  return { resourceMetadataUrl: new URL(match[1]!, url).toString(), scopes: scope ? scope[1]!.split(" ") : null };
}
