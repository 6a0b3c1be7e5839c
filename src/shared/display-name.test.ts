import { describe, expect, it } from "vitest";
import { cleanName, NAME_MAX, namedEntity, shownData, shownJson, shownLines, shownName, shownText } from "./display-name.js";

const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

describe("names shown to a person deciding", () => {
  it.each([
    ["line feed", "\n", "[U+000A]"],
    ["carriage return", "\r", "[U+000D]"],
    ["tab", "\t", "[U+0009]"],
    ["NUL", "\0", "[U+0000]"],
    ["DEL", "\u007F", "[U+007F]"],
    ["C1 next line", "\u0085", "[U+0085]"],
    ["soft hyphen", "\u00AD", "[U+00AD]"],
    ["zero-width space", "\u200B", "[U+200B]"],
    ["zero-width joiner", "\u200D", "[U+200D]"],
    ["left-to-right mark", "\u200E", "[U+200E]"],
    ["right-to-left mark", "\u200F", "[U+200F]"],
    ["line separator", "\u2028", "[U+2028]"],
    ["paragraph separator", "\u2029", "[U+2029]"],
    ["left-to-right embedding", "\u202A", "[U+202A]"],
    ["right-to-left override", "\u202E", "[U+202E]"],
    ["left-to-right isolate", "\u2066", "[U+2066]"],
    ["pop directional isolate", "\u2069", "[U+2069]"],
    ["byte order mark", "\uFEFF", "[U+FEFF]"],
    ["tag character (astral format)", "\u{E0041}", "[U+E0041]"],
  ])("shows the %s as its code point, never acts on it", (_what, char, shown) => {
    expect(cleanName(`Front${char}Door`)).toBe(`Front${shown}Door`);
    expect(shownName(`Front${char}Door`)).toBe(`"Front${shown}Door"`);
  });

  it("keeps ordinary letters, accents, emoji and spaces as they are", () => {
    expect(cleanName("Küche – Decke 💡 北")).toBe("Küche – Decke 💡 北");
  });

  it("quotes a name, escaping the quotes and backslashes inside it, so it cannot close its own quotes", () => {
    expect(shownName('Porch") on lock.back_door ("x')).toBe('"Porch\\") on lock.back_door (\\"x"');
    expect(shownName("a\\b")).toBe('"a\\\\b"');
  });

  it("cuts an absurdly long name at NAME_MAX characters, on whole code points, and says so with …", () => {
    const cut = cleanName("💡".repeat(500));
    expect(Array.from(cut)).toHaveLength(NAME_MAX);
    expect(cut.endsWith("💡…")).toBe(true);
    expect(cleanName("x".repeat(NAME_MAX))).toBe("x".repeat(NAME_MAX));
    // Escapes count too: a name of invisible characters cannot grow past the cap.
    expect(Array.from(cleanName("\u202E".repeat(1_000))).length).toBe(NAME_MAX);
    expect(Array.from(shownText("y".repeat(10_000))).length).toBe(2_000);
  });

  it("names an entity by its id first, then the quoted name and what more there is", () => {
    expect(namedEntity("lock.front_door", "Front Door")).toBe('lock.front_door ("Front Door")');
    expect(namedEntity("lock.front_door", "Front\nDoor", "now locked")).toBe('lock.front_door ("Front[U+000A]Door", now locked)');
    expect(namedEntity("lock.front_door")).toBe("lock.front_door");
    expect(namedEntity("lock.front_door", "")).toBe("lock.front_door");
  });

  it("shows data as one line of JSON with nothing invisible in it", () => {
    const line = shownJson({ message: "a\nb\u2028c\u202Ed\u0085" });
    expect(line).toBe('{"message":"a\\nb[U+2028]c[U+202E]d[U+0085]"}');
    expect(line).not.toMatch(INVISIBLE);
  });

  it("keeps our own line breaks in a config or diff, and shows every other invisible character on its line", () => {
    expect(shownLines("alias: |-\n  Door\u202E\r\n  x\u2028y")).toBe("alias: |-\n  Door[U+202E][U+000D]\n  x[U+2028]y");
  });

  it("cleans every string of a structure for a page, keys too, and leaves its shape", () => {
    expect(shownData({ "k\u200B": ["a\u202Eb", 1, null, { c: "d\n" }], n: true })).toEqual({ "k[U+200B]": ["a[U+202E]b", 1, null, { c: "d[U+000A]" }], n: true });
  });
});
