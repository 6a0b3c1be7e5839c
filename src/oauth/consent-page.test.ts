import { describe, expect, it } from "vitest";
import { consentPage, errorPage } from "./consent-page.js";

const page = (client: { clientId: string; name: string; kind: "registered" | "metadata_document" }) =>
  consentPage({ client, redirectHost: "127.0.0.1:3118", sealed: "sealed", actionPath: "/oauth/authorize" });

describe("the consent page", () => {
  it("calls every client's name its own claim, and names where a metadata document is published", () => {
    const registered = page({ clientId: "hac_x", name: "Claude Code", kind: "registered" });
    expect(registered).toContain("(the name is the client's own claim)");
    const documented = page({ clientId: "https://claude.ai/oauth/claude-code-client-metadata", name: "Claude Code", kind: "metadata_document" });
    expect(documented).toContain("the name is the client's own claim, from its description published at <code>claude.ai</code>");
  });

  it("shows invisible and bidirectional characters in a name as their code points, so the name cannot read as another", () => {
    const html = page({ clientId: "hac_x", name: "Evil\u202Eedoc\u200B", kind: "registered" });
    expect(html).not.toMatch(/[\u202E\u200B]/);
    expect(html).toContain("Evil[U+202E]edoc[U+200B]");
  });

  it("says plainly what the client will be able to do, approvals included", () => {
    const html = page({ clientId: "hac_x", name: "Claude Code", kind: "registered" });
    expect(html).toContain("ask for your approval first where they say so");
  });
});

describe("the sign-in's error page", () => {
  it("shows a protocol message as a sentence of its own under the heading", () => {
    const html = errorPage("unknown client_id: register the client at the registration endpoint first");
    expect(html).toContain("<h1>This sign-in cannot continue</h1><p>Unknown client_id: register the client at the registration endpoint first.</p>");
  });
});
