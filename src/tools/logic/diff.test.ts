import { describe, expect, it } from "vitest";
import { unifiedDiff } from "./diff.js";

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

describe("unifiedDiff", () => {
  it("writes what `diff -u` writes: three lines of context, hunks apart when more than six lines lie between, removals before additions", () => {
    const before = lines(30);
    const after = before.replace("line 4\n", "line 4x\n").replace("line 21\n", "").replace("line 29\n", "line 29\nnew\n");
    expect(unifiedDiff({ before, after, beforeName: "saved", afterName: "draft" })).toBe(
      [
        "--- saved",
        "+++ draft",
        "@@ -1,7 +1,7 @@",
        " line 1",
        " line 2",
        " line 3",
        "-line 4",
        "+line 4x",
        " line 5",
        " line 6",
        " line 7",
        "@@ -18,7 +18,6 @@",
        " line 18",
        " line 19",
        " line 20",
        "-line 21",
        " line 22",
        " line 23",
        " line 24",
        "@@ -27,4 +26,5 @@",
        " line 27",
        " line 28",
        " line 29",
        "+new",
        " line 30",
        "",
      ].join("\n"),
    );
  });

  it("is empty for equal texts, and counts an empty side as line 0", () => {
    expect(unifiedDiff({ before: "a\n", after: "a\n", beforeName: "x", afterName: "y" })).toBe("");
    expect(unifiedDiff({ before: "", after: "a\n", beforeName: "x", afterName: "y" })).toBe("--- x\n+++ y\n@@ -0,0 +1 @@\n+a\n");
  });
});
