import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const root = join(import.meta.dirname, "..", "..");
const read = (file: string) => readFile(join(root, file), "utf8");
const yaml = async (file: string) => parse(await read(file)) as Record<string, unknown>;

interface Step {
  uses?: string;
  with?: Record<string, string>;
}
interface Workflow {
  on: { push?: { branches?: string[]; tags?: string[] }; pull_request?: unknown };
  env: Record<string, string>;
  jobs: Record<string, { steps: Step[] }>;
}

const BUILDER = "home-assistant/builder/actions/";

/** The steps of the workflow that use one of the builder's actions, by action name. */
function builderSteps(workflow: Workflow): Map<string, Step> {
  const steps = new Map<string, Step>();
  for (const job of Object.values(workflow.jobs)) {
    for (const step of job.steps) {
      if (step.uses?.startsWith(BUILDER)) steps.set(step.uses.slice(BUILDER.length).split("@")[0]!, step);
    }
  }
  return steps;
}

/** `${{ env.NAME }}` → the workflow's env value; anything else as written. */
function resolved(workflow: Workflow, value: string | undefined): string | undefined {
  const match = value?.match(/^\$\{\{\s*env\.([A-Z_]+)\s*\}\}$/);
  return match ? workflow.env[match[1]!] : value;
}

/** What the build, the store and the Supervisor each read about the image. */
async function sources() {
  const config = await yaml("config.yaml");
  const build = await yaml("build.yaml");
  const workflow = (await yaml(".github/workflows/builder.yaml")) as unknown as Workflow;
  const dockerfile = await read("Dockerfile");
  return { config, build, workflow, dockerfile };
}

describe("the published image: workflow, config.yaml, build.yaml and Dockerfile agree", () => {
  it("builds every architecture config.yaml lists, and only those", async () => {
    const { config, build, workflow, dockerfile } = await sources();
    const arches = [...(config.arch as string[])].sort();
    expect(arches).toEqual(["aarch64", "amd64"]);
    const steps = builderSteps(workflow);
    for (const action of ["prepare-multi-arch-matrix", "publish-multi-arch-manifest"]) {
      const listed = JSON.parse(resolved(workflow, steps.get(action)?.with?.architectures) ?? "null") as string[];
      expect([...listed].sort(), `${action} architectures`).toEqual(arches);
    }
    expect(Object.keys(build.build_from as object).sort(), "build.yaml build_from").toEqual(arches);
    const label = dockerfile.match(/io\.hass\.arch="([^"]+)"/)?.[1];
    expect(label?.split("|").sort(), "the Dockerfile's io.hass.arch label").toEqual(arches);
  });

  it("builds from the base image the Dockerfile names, which build.yaml names per architecture", async () => {
    const { build, workflow, dockerfile } = await sources();
    const base = dockerfile.match(/^ARG BUILD_FROM=(\S+)$/m)?.[1];
    expect(base).toMatch(/^ghcr\.io\/home-assistant\/base:\d+\.\d+$/);
    // Home Assistant's docker-base publishes <arch>-base:<tag> per architecture
    // and combines them into the multi-arch base:<tag>.
    for (const [arch, from] of Object.entries(build.build_from as Record<string, string>)) {
      expect(from, `build.yaml build_from.${arch}`).toBe(base!.replace("/base:", `/${arch}-base:`));
    }
    // The workflow passes no BUILD_FROM, so CI builds from the Dockerfile's default too.
    expect(builderSteps(workflow).get("build-image")?.with?.["build-args"] ?? "").not.toMatch(/BUILD_FROM/);
  });

  it("pushes the image config.yaml tells the Supervisor to pull", async () => {
    const { config, build, workflow } = await sources();
    const steps = builderSteps(workflow);
    const prepare = steps.get("prepare-multi-arch-matrix")?.with ?? {};
    const prefix = resolved(workflow, prepare["registry-prefix"]);
    const name = resolved(workflow, prepare["image-name"]);
    // prepare-multi-arch-matrix (builder 2026.06.0, action.yml) names each
    // image "${REGISTRY_PREFIX}/${arch}-${IMAGE_NAME}", and build-image pushes
    // matrix.image.
    expect(`${prefix}/{arch}-${name}`).toBe(config.image);
    expect(steps.get("build-image")?.with?.image).toBe("${{ matrix.image }}");
    expect(steps.get("build-image")?.with?.arch).toBe("${{ matrix.arch }}");
    const manifest = steps.get("publish-multi-arch-manifest")?.with ?? {};
    expect(resolved(workflow, manifest["registry-prefix"])).toBe(prefix);
    expect(resolved(workflow, manifest["image-name"])).toBe(name);
    // build.yaml names no image of its own, or the same one.
    expect(build.image ?? config.image).toBe(config.image);
    // The image lives under the project's own GitHub owner, from config.yaml's url.
    const owner = (config.url as string).match(/^https:\/\/github\.com\/([^/]+)\//)?.[1];
    expect(prefix).toBe(`ghcr.io/${owner}`);
  });

  it("uses one pinned release of the builder's actions, on main, release tags and pull requests", async () => {
    const { workflow } = await sources();
    const refs = new Set([...builderSteps(workflow).values()].map((s) => s.uses!.split("@")[1]));
    expect([...builderSteps(workflow).keys()].sort()).toEqual(["build-image", "prepare-multi-arch-matrix", "publish-multi-arch-manifest"]);
    expect(refs.size).toBe(1);
    expect([...refs][0]).toMatch(/^[0-9a-f]{40}$/);
    expect(workflow.on.push?.branches).toEqual(["main"]);
    expect(workflow.on.push?.tags).toEqual(["v*"]);
    expect(workflow.on).toHaveProperty("pull_request");
  });
});
