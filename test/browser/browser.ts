import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";

/** Screenshots go here; the folder is git-ignored and kept as the run's artifacts. */
export const ARTIFACTS = join(import.meta.dirname, "..", "..", "test-artifacts", "browser");

/** Debian's Chromium, headless, with a fresh profile and nothing fetched in the background. */
export async function launchChromium(): Promise<Browser> {
  await mkdir(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic", "--no-first-run", "--disable-component-update", "--disable-sync"],
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Every text and attribute the page holds, shadow roots included: where a secret must never be. */
export function deepText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts: string[] = [];
    const walk = (root: Document | ShadowRoot | Element) => {
      for (const el of Array.from(root.querySelectorAll("*"))) {
        for (const a of Array.from(el.attributes)) parts.push(a.value);
        if (el.shadowRoot) {
          parts.push(el.shadowRoot.textContent ?? "");
          walk(el.shadowRoot);
        }
      }
    };
    parts.push(document.documentElement.outerHTML);
    walk(document);
    return parts.join("\n");
  });
}
