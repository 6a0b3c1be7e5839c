import { mcpResourceOf, parseResource } from "./metadata.js";
import type { SignInOrigin } from "./sign-in-origin.js";

/**
 * Which MCP URL a sign-in's tokens are bound to. A sign-in may begin at one
 * of the add-on's names and show its pages at another (see
 * sign-in-origin.ts): Home Assistant reads the metadata and redeems the code
 * at the add-on's internal name, while the person's browser signs in at the
 * host's address. Both are the same listener, so a resource is accepted
 * where its sign-in pages are, and a code is bound, when redeemed, to the
 * name it is redeemed at. Names of other servers are never accepted.
 */
export interface ResourceBinding {
  /** For an authorize request shown at `pagesOrigin`: the resource it names (or this origin's `/mcp` when it names none); undefined when it is not one of ours that signs in here. */
  atAuthorize(named: string | null, pagesOrigin: string): Promise<string | undefined>;
  /** For a code redeemed at `origin`: the resource its grant is bound to; undefined when the code's resource is not this origin's. */
  atToken(codeResource: string, origin: string): Promise<string | undefined>;
  /** Whether a `resource` a token request names is one of this origin's MCP URLs. */
  isOwn(named: string, origin: string): boolean;
}

export function createResourceBinding(signInOrigin: SignInOrigin): ResourceBinding {
  return {
    async atAuthorize(named, pagesOrigin) {
      if (named === null) return mcpResourceOf(pagesOrigin);
      const target = parseResource(named);
      if (!target) return undefined;
      const here = target.origin === pagesOrigin || (await signInOrigin(target.origin)) === pagesOrigin;
      return here ? mcpResourceOf(target.origin, target.path) : undefined;
    },
    async atToken(codeResource, origin) {
      const target = parseResource(codeResource);
      if (!target) return undefined;
      if (target.origin === origin) return codeResource;
      return (await signInOrigin(origin)) === target.origin ? mcpResourceOf(origin, target.path) : undefined;
    },
    isOwn: (named, origin) => parseResource(named)?.origin === origin,
  };
}
