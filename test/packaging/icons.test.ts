import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { contextFiles, parseDockerignore } from "../support/docker-context.js";
// @ts-expect-error: a plain ESM script without types, run by hand to redraw the icons.
import { renderIcon, renderLogo } from "../../scripts/render-icons.mjs";

const root = join(import.meta.dirname, "..", "..");
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The IHDR of a PNG file: its first chunk, right after the signature. */
function header(png: Buffer) {
  expect(png.subarray(0, 8).equals(SIGNATURE), "PNG signature").toBe(true);
  expect(png.toString("ascii", 12, 16), "first chunk").toBe("IHDR");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20), bitDepth: png[24], colorType: png[25] };
}

/** The image's filtered rows: its IDAT chunks joined and inflated. */
function pixels(png: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString("ascii", at + 4, at + 8) === "IDAT") parts.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return inflateSync(Buffer.concat(parts));
}

describe("the add-on store's images, next to config.yaml", () => {
  it("icon.png is a 128×128 PNG with transparency", async () => {
    const png = await readFile(join(root, "icon.png"));
    // Colour type 6 is RGBA: the mark stands on a transparent background.
    expect(header(png)).toEqual({ width: 128, height: 128, bitDepth: 8, colorType: 6 });
  });

  it("logo.png is a 250×100 PNG with transparency", async () => {
    const png = await readFile(join(root, "logo.png"));
    expect(header(png)).toEqual({ width: 250, height: 100, bitDepth: 8, colorType: 6 });
  });

  it("both hold what scripts/render-icons.mjs draws, so a redraw is reproducible", async () => {
    // Pixels, not bytes: another zlib may compress the same rows differently.
    expect(pixels(renderIcon() as Buffer).equals(pixels(await readFile(join(root, "icon.png"))))).toBe(true);
    expect(pixels(renderLogo() as Buffer).equals(pixels(await readFile(join(root, "logo.png"))))).toBe(true);
  });

  it("stay out of the image: the store reads them from the repository, not the container", async () => {
    const files = await contextFiles(root, parseDockerignore(await readFile(join(root, ".dockerignore"), "utf8")));
    expect(files.filter((f) => f.endsWith(".png"))).toEqual([]);
  });
});
