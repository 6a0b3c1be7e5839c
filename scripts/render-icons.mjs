// Draws the add-on store's icon.png (128×128) and logo.png (250×100) with Node
// alone: shapes are tested per sub-pixel, and the PNG chunks are written here.
// Run `node scripts/render-icons.mjs` after changing a shape; the packaging
// test checks that the committed files are exactly what this script draws.
import { Buffer } from "node:buffer";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { crc32, deflateSync } from "node:zlib";

/** Home Assistant blue. */
const BLUE = [0x18, 0xbc, 0xf2];
/** Sub-pixels per side: 4×4 samples give 17 levels of edge alpha. */
const SAMPLES = 4;

/** @typedef {[number, number]} Point */
/** @typedef {(x: number, y: number) => boolean} Shape */

/** Squared distance from (x, y) to the segment a–b. */
function segmentDistance2(x, y, [ax, ay], [bx, by]) {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len2));
  const px = ax + t * dx - x;
  const py = ay + t * dy - y;
  return px * px + py * py;
}

/** A round-capped, round-joined stroke along each polyline. */
function stroke(polylines, width) {
  const r = width / 2;
  // Each polyline's box, grown by the stroke's half width, skips most samples cheaply.
  const parts = polylines.map((line) => {
    const xs = line.map(([x]) => x);
    const ys = line.map(([, y]) => y);
    const box = [Math.min(...xs) - r, Math.min(...ys) - r, Math.max(...xs) + r, Math.max(...ys) + r];
    return { box, segments: line.slice(1).map((p, i) => /** @type {[Point, Point]} */ ([line[i], p])) };
  });
  return (x, y) =>
    parts.some(
      ({ box: [x0, y0, x1, y1], segments }) =>
        x >= x0 && x <= x1 && y >= y0 && y <= y1 && segments.some(([a, b]) => segmentDistance2(x, y, a, b) <= r * r),
    );
}

/** Points along a circular arc; angles in degrees, y pointing down. */
function arc([cx, cy], r, from, to, steps = 16) {
  return Array.from({ length: steps + 1 }, (_, i) => {
    const a = ((from + ((to - from) * i) / steps) * Math.PI) / 180;
    return /** @type {Point} */ ([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  });
}

/** Inside a polygon, by the even-odd rule. */
function polygon(points) {
  return (x, y) => {
    let inside = false;
    for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
      const [xi, yi] = points[i];
      const [xj, yj] = points[j];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
  };
}

function roundedRect(x0, y0, x1, y1, r) {
  return (x, y) => {
    const dx = Math.max(x0 + r - x, 0, x - (x1 - r));
    const dy = Math.max(y0 + r - y, 0, y - (y1 - r));
    return x >= x0 && x <= x1 && y >= y0 && y <= y1 && dx * dx + dy * dy <= r * r;
  };
}

/** A four-pointed spark: an astroid, |x|^⅔ + |y|^⅔ ≤ r^⅔. */
function spark([cx, cy], r) {
  return (x, y) => Math.cbrt((x - cx) ** 2) + Math.cbrt((y - cy) ** 2) <= Math.cbrt(r * r);
}

const union = (/** @type {Shape[]} */ ...shapes) => (/** @type {number} */ x, /** @type {number} */ y) => shapes.some((s) => s(x, y));
const minus = (/** @type {Shape} */ a, /** @type {Shape} */ b) => (/** @type {number} */ x, /** @type {number} */ y) => a(x, y) && !b(x, y);

/** Places a shape drawn on a 128-unit square at (left, top), `size` pixels wide. */
function placed(shape, { left, top, size }) {
  const k = 128 / size;
  return (x, y) => shape((x - left) * k, (y - top) * k);
}

/** The mark on a 128-unit square: a house outline holding a chat bubble with a spark cut out of it. */
function mark() {
  const house = stroke([[[18, 112], [18, 58], [64, 18], [110, 58], [110, 112], [18, 112]]], 9);
  const bubble = union(roundedRect(34, 56, 94, 96, 12), polygon([[44, 92], [60, 92], [40, 106]]));
  return union(house, minus(bubble, spark([64, 76], 15)));
}

/**
 * "HA Agent" as strokes on a grid where capitals are 10 units high, the
 * baseline is y = 10 and y points down. Each glyph: its width and polylines.
 * @type {Record<string, { width: number, lines: Point[][] }>}
 */
const GLYPHS = {
  H: { width: 7, lines: [[[0, 0], [0, 10]], [[7, 0], [7, 10]], [[0, 5], [7, 5]]] },
  A: { width: 8, lines: [[[0, 10], [4, 0], [8, 10]], [[1.5, 6.3], [6.5, 6.3]]] },
  " ": { width: 2, lines: [] },
  g: { width: 6.6, lines: [arc([3.3, 6.7], 3.3, 0, 360, 32), [[6.6, 3.4], [6.6, 10.6], ...arc([3.3, 10.6], 3.3, 0, 150)]] },
  e: { width: 6.6, lines: [[[0, 6.7], [6.6, 6.7], ...arc([3.3, 6.7], 3.3, 0, -320, 32)]] },
  n: { width: 6.2, lines: [[[0, 3.4], [0, 10]], [...arc([3.1, 6.5], 3.1, 180, 360), [6.2, 10]]] },
  t: { width: 4.6, lines: [[[1.6, 1], [1.6, 8.2], ...arc([3.4, 8.2], 1.8, 180, 90)], [[0, 3.6], [4.4, 3.6]]] },
};

/** A line of text in the stroke font, `cap` pixels high with its capitals' top-left at (left, top). */
function text(string, { left, top, cap, gap = 2, weight = 1.3 }) {
  const k = cap / 10;
  /** @type {Point[][]} */
  const lines = [];
  let x = 0;
  for (const char of string) {
    const glyph = GLYPHS[char];
    if (!glyph) throw new Error(`render-icons: no glyph for ${JSON.stringify(char)}; add it to GLYPHS`);
    for (const line of glyph.lines) lines.push(line.map(([gx, gy]) => [left + (x + gx) * k, top + gy * k]));
    x += glyph.width + gap;
  }
  return stroke(lines, weight * k);
}

/** An RGBA PNG of the shape in one colour, its edges anti-aliased by supersampling. */
function renderPng(width, height, shape, [r, g, b] = BLUE) {
  const stride = width * 4 + 1;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    raw[y * stride] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      let hits = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) if (shape(x + (sx + 0.5) / SAMPLES, y + (sy + 0.5) / SAMPLES)) hits++;
      }
      const o = y * stride + 1 + x * 4;
      // Fully transparent pixels stay 0,0,0,0 so they compress well.
      if (hits > 0) raw.set([r, g, b, Math.round((255 * hits) / SAMPLES ** 2)], o);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, adaptive filtering, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A PNG chunk: length, type, data, and the CRC of type and data. */
function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** The store's square icon, 128×128. */
export function renderIcon() {
  return renderPng(128, 128, placed(mark(), { left: 0, top: 0, size: 128 }));
}

/** The store's logo, 250×100: the mark, then the name. */
export function renderLogo() {
  const logo = union(placed(mark(), { left: 4, top: 6, size: 88 }), text("HA Agent", { left: 102, top: 38, cap: 22 }));
  return renderPng(250, 100, logo);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  writeFileSync(join(root, "icon.png"), renderIcon());
  writeFileSync(join(root, "logo.png"), renderLogo());
  console.log("wrote icon.png and logo.png");
}
