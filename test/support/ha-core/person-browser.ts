import { Browser } from "../oauth-browser.js";
import { networkFetch, resolveOrFail, type Network } from "./network.js";

/**
 * The person's browser on their own network: `Browser` from oauth-browser.ts
 * (cookie jar, one hop at a time), whose hops resolve only the names of
 * `network`. A page at a name it cannot resolve fails as in a real browser
 * (ENOTFOUND), with the URL named in the error.
 */
export class PersonBrowser extends Browser {
  readonly #fetch: typeof fetch;
  /** Every URL the browser opened, in order: the story of the sign-in. */
  readonly visited: string[] = [];

  constructor(readonly network: Network) {
    super();
    this.#fetch = networkFetch(network);
  }

  override hop(url: string, init: RequestInit = {}): ReturnType<Browser["hop"]> {
    this.visited.push(url);
    // Fail before anything reaches Browser.hop, so the error names the page the person could not open.
    resolveOrFail(this.network, new URL(url));
    // Browser.hop calls the global fetch before its first await; the global is
    // swapped only for that synchronous stretch, so nothing else in the test
    // process ever sees this network's fetch.
    const global = globalThis.fetch;
    let used = false;
    globalThis.fetch = ((input: string | URL | Request, options?: RequestInit) => {
      used = true;
      return this.#fetch(input, options);
    }) as typeof fetch;
    try {
      const hop = super.hop(url, init);
      if (!used) throw new Error("Browser.hop no longer calls fetch synchronously: PersonBrowser must be changed to give it this network's fetch another way.");
      return hop;
    } finally {
      globalThis.fetch = global;
    }
  }
}
