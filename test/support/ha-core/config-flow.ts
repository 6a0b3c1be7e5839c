import { randomBytes, randomUUID } from "node:crypto";
import type { AuthenticateHeader } from "./auth-header.js";
import { validateInput } from "./coordinator.js";
import { discoverAuthorizationServer, discoverProtectedResource, selectScopes, stepHassio, type HassioServiceInfo, type OAuthConfig, type ResourceMetadata } from "./discovery.js";
import { HaFlowAbort, InvalidAuth } from "./errors.js";
import { authorizeUrlOf, exchangeCode, generateCodeVerifier, receiveCallback, redirectUriOf, type FlowImplementation, type HassConfig, type TokenExchange } from "./oauth2-flow.js";
import { registerDynamicClient, type Registration } from "./registration.js";
import type { SessionWire } from "./mcp-session.js";

/** The config entry HA creates at the end (`async_oauth_create_entry`): the flow's data plus the token. */
export interface McpConfigEntry {
  title: string;
  url: string;
  slug: string;
  authorizationUrl: string;
  tokenUrl: string;
  scope: string[] | null;
  token: Record<string, unknown>;
}

/**
 * One run of homeassistant/components/mcp/config_flow.py
 * `ModelContextProtocolConfigFlow`, from Supervisor discovery to the entry,
 * one method per step, in the order HA takes them. `fetch` is HA Core's: it
 * resolves names on HA's Docker network.
 */
export class McpConfigFlow {
  readonly flowId = randomUUID().replaceAll("-", "");
  /** `hass.data[DATA_JWT_SECRET]`: `secrets.token_hex()`. */
  readonly #jwtSecret = randomBytes(32).toString("hex");
  data: { url: string; slug: string; addonName: string } | undefined;
  authHeader: AuthenticateHeader | null = null;
  resource: ResourceMetadata | null = null;
  oauth: OAuthConfig | undefined;
  scope: string[] | null = null;
  impl: FlowImplementation | undefined;
  state: string | undefined;

  constructor(readonly o: { fetch: typeof fetch; hass: HassConfig }) {}

  /** `async_step_hassio`: the discovery's URL, checked; then the confirm form (`async_step_hassio_confirm`, user_input None). */
  hassio(info: HassioServiceInfo): { stepId: "hassio_confirm"; addon: string } {
    const { url, slug, addonName } = stepHassio(info);
    this.data = { url, slug, addonName };
    return { stepId: "hassio_confirm", addon: addonName };
  }

  /** `async_step_hassio_confirm` with the person's confirmation: `validate_input` without a token, which must end in InvalidAuth to go on to OAuth. */
  async confirm(): Promise<AuthenticateHeader | null> {
    const { url } = this.#data();
    try {
      const info = await validateInput({ fetch: this.o.fetch, url });
      throw new HaFlowAbort("async_step_hassio_confirm", "create_entry", `the server let HA in without a token (title ${info.title}); an entry without OAuth would be created`);
    } catch (error) {
      if (!(error instanceof InvalidAuth)) throw error;
      this.authHeader = error.metadata;
      return this.authHeader;
    }
  }

  /** `async_step_auth_discovery`: resource metadata from the challenge's URL (with fallbacks), then the first authorization server's metadata, then `_select_scopes`. */
  async authDiscovery(): Promise<{ resource: ResourceMetadata | null; oauth: OAuthConfig; scope: string[] | null }> {
    const { url } = this.#data();
    try {
      if (this.authHeader) {
        this.resource = await discoverProtectedResource(this.o.fetch, this.authHeader.resourceMetadataUrl, url);
        this.oauth = await discoverAuthorizationServer(this.o.fetch, this.resource.authorizationServers[0]!);
      } else {
        this.oauth = await discoverAuthorizationServer(this.o.fetch, url);
      }
    } catch (error) {
      throw new HaFlowAbort("async_step_auth_discovery", "cannot_connect", (error as Error).message);
    }
    this.scope = selectScopes(this.authHeader, this.oauth, this.resource);
    if (!this.oauth.registrationEndpoint) throw new HaFlowAbort("async_step_auth_discovery", "missing_credentials", "no registration_endpoint: HA would ask for application credentials (async_step_credentials_choice)");
    return { resource: this.resource, oauth: this.oauth, scope: this.scope };
  }

  /**
   * `_async_register_dynamic_client`: the redirect URI from
   * `async_get_redirect_uri`, registration, and the implementation it yields
   * (application_credentials.py `McpRegisteredOAuth2Implementation`, whose PKCE
   * verifier is made when it is built).
   */
  async registerClient(): Promise<Registration> {
    const oauth = this.#oauth();
    const redirectUri = redirectUriOf(this.o.hass);
    const registration = await registerDynamicClient({ fetch: this.o.fetch, registrationEndpoint: oauth.registrationEndpoint!, redirectUri, tokenEndpointAuthMethods: oauth.tokenEndpointAuthMethods, scopes: this.scope });
    this.impl = { client: registration.client, authorizeUrl: oauth.authorizeUrl, tokenUrl: oauth.tokenUrl, redirectUri, codeVerifier: generateCodeVerifier() };
    return registration;
  }

  /** `async_step_auth` (user_input None): the external step, whose URL the person's browser opens. */
  auth(): { stepId: "auth"; url: string; state: string } {
    if (!this.impl) throw new Error("registerClient() first");
    const { url, state } = authorizeUrlOf({ impl: this.impl, flowId: this.flowId, jwtSecret: this.#jwtSecret, scopes: this.scope });
    this.state = state;
    return { stepId: "auth", url, state };
  }

  /**
   * Where the browser ended: `OAuth2AuthorizeCallbackView` checks the state
   * and resumes the flow; `async_step_creation` exchanges the code; and
   * `async_oauth_create_entry` runs `validate_input` with the token before
   * creating the entry.
   */
  async finish(back: URL): Promise<{ exchange: TokenExchange; entry: McpConfigEntry; wire: SessionWire }> {
    if (!this.impl) throw new Error("registerClient() first");
    const { code, state } = receiveCallback({ back, jwtSecret: this.#jwtSecret, flowId: this.flowId });
    const exchange = await exchangeCode({ fetch: this.o.fetch, impl: this.impl, code, state });
    const data = this.#data();
    const token = String(exchange.token.access_token);
    let info: Awaited<ReturnType<typeof validateInput>>;
    try {
      info = await validateInput({ fetch: this.o.fetch, url: data.url, token });
    } catch (error) {
      if (error instanceof InvalidAuth) throw new HaFlowAbort("async_oauth_create_entry", "unknown", `the server refused the token it issued (401 at ${data.url})`);
      throw error;
    }
    const oauth = this.#oauth();
    return { exchange, wire: info.wire, entry: { title: info.title, url: data.url, slug: data.slug, authorizationUrl: oauth.authorizeUrl, tokenUrl: oauth.tokenUrl, scope: this.scope, token: exchange.token } };
  }

  #data() {
    if (!this.data) throw new Error("hassio() first");
    return this.data;
  }
  #oauth() {
    if (!this.oauth) throw new Error("authDiscovery() first");
    return this.oauth;
  }
}
