import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { readFile, readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { VERSION } from "../../src/app.js";
import { OPTION_SCHEMAS, SECRET_OPTIONS } from "../../src/config/index.js";
import { builtInModelProviders } from "../../src/models/index.js";
import { NODE_FLAGS, START_ENV } from "../support/program.js";

const root = join(import.meta.dirname, "..", "..");
const yaml = async (file: string) => parse(await readFile(join(root, file), "utf8")) as Record<string, unknown>;

/** The Supervisor's defaults: the add-on linter rejects a key that repeats one. */
const SUPERVISOR_DEFAULTS: Record<string, unknown> = {
  startup: "application", boot: "auto", ingress: false, ingress_port: 8099, ingress_entry: "/", ingress_stream: false,
  panel_icon: "mdi:puzzle", panel_admin: true, homeassistant_api: false, hassio_api: false, hassio_role: "default",
  host_network: false, host_ipc: false, host_dbus: false, host_pid: false, host_uts: false, init: true, timeout: 10,
  stdin: false, legacy: false, docker_api: false, full_access: false, apparmor: true, auth_api: false, advanced: false,
  stage: "stable", tmpfs: false, audio: false, video: false, gpio: false, usb: false, uart: false, udev: false,
  devicetree: false, kernel_modules: false, realtime: false, journald: false, backup: "hot",
};

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return [".git", "node_modules", "dist"].includes(e.name) ? [] : filesUnder(path);
      return [path];
    }),
  );
  return nested.flat();
}

describe("add-on packaging", () => {
  it("config.yaml has the required keys and s6-overlay v3 settings", async () => {
    const config = await yaml("config.yaml");
    for (const key of ["name", "version", "slug", "description", "arch"]) expect(config, key).toHaveProperty(key);
    expect(config.arch).toEqual(["aarch64", "amd64"]);
    expect(config.init).toBe(false);
    expect(config.ingress).toBe(true);
    expect(config).not.toHaveProperty("watchdog");
    expect(config.ports).toEqual({ "8808/tcp": 8808 });
    const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { version: string };
    expect(config.version).toBe(pkg.version);
    // The version the program reports (banner, MCP server info, status page).
    expect(VERSION).toBe(pkg.version);
  });

  it("config.yaml sets no key to the Supervisor's default value", async () => {
    const config = await yaml("config.yaml");
    for (const [key, value] of Object.entries(config)) {
      if (key in SUPERVISOR_DEFAULTS) expect(value, `${key} repeats the default`).not.toEqual(SUPERVISOR_DEFAULTS[key]);
    }
  });

  it("every option has a schema, a translation and a documented section, and nothing else does", async () => {
    const config = await yaml("config.yaml");
    // A list option's schema is a one-item list of its item type.
    const schema = Object.fromEntries(Object.entries(config.schema as Record<string, string | string[]>).map(([k, v]) => [k, Array.isArray(v) ? `[${v[0]}]` : v]));
    const options = config.options as Record<string, unknown>;
    const translations = ((await yaml("translations/en.yaml")).configuration ?? {}) as Record<string, { name?: string; description?: string }>;
    const docs = await readFile(join(root, "DOCS.md"), "utf8");
    const names = Object.keys(OPTION_SCHEMAS).sort();
    expect(Object.keys(schema).sort()).toEqual(names);
    expect(Object.keys(translations).sort()).toEqual(names);
    for (const name of names) {
      expect(translations[name]?.name, name).toBeTruthy();
      expect(translations[name]?.description, name).toBeTruthy();
      expect(docs, `DOCS.md section for ${name}`).toContain(`### Option: \`${name}\``);
      if (SECRET_OPTIONS.has(name as never)) expect(schema[name]).toMatch(/^password/);
      // An option the user must be able to leave empty is optional in the schema and absent from the defaults.
      if (schema[name]?.endsWith("?")) expect(options, name).not.toHaveProperty(name);
      else expect(options, name).toHaveProperty(name);
    }
  });

  it("the defaults in config.yaml are the program's own defaults", async () => {
    const options = (await yaml("config.yaml")).options as Record<string, unknown>;
    for (const [name, value] of Object.entries(options)) {
      const schema = OPTION_SCHEMAS[name as keyof typeof OPTION_SCHEMAS];
      expect(schema.parse(undefined), name).toEqual(value);
    }
  });

  it("the add-on's model_provider list is the model-provider registry's selectable entries", async () => {
    const schema = (await yaml("config.yaml")).schema as Record<string, string>;
    expect(schema.model_provider).toBe(`list(${builtInModelProviders().selectable().map((p) => p.name).join("|")})`);
  });

  it("no file other than the root config.yaml looks like an add-on manifest to the Supervisor", async () => {
    const manifests = (await filesUnder(root))
      .map((f) => relative(root, f))
      .filter((f) => /(^|\/)config\.(json|ya?ml)$/.test(f));
    expect(manifests).toEqual(["config.yaml"]);
  });

  it("repository.yaml and build.yaml name what the store and older Supervisors need", async () => {
    const repo = await yaml("repository.yaml");
    for (const key of ["name", "url", "maintainer"]) expect(repo, key).toHaveProperty(key);
    const build = await yaml("build.yaml");
    expect(Object.keys(build.build_from as object).sort()).toEqual(["aarch64", "amd64"]);
  });

  it("the Dockerfile chooses its own base, installs Node from apk and checks liveness, not readiness", async () => {
    const dockerfile = await readFile(join(root, "Dockerfile"), "utf8");
    expect(dockerfile).toMatch(/^ARG BUILD_FROM=\S+/m);
    expect(dockerfile).toMatch(/^FROM \$\{?BUILD_FROM\}?/m);
    expect(dockerfile).toMatch(/apk add --no-cache nodejs/);
    expect(dockerfile).toMatch(/npm ci/);
    expect(dockerfile).toMatch(/npm prune --omit=dev/);
    expect(dockerfile).toMatch(/HEALTHCHECK[\s\S]*\/livez/);
    // Readiness is 503 whenever Core is down: a watchdog on it would restart the add-on on every Core update.
    expect(dockerfile).not.toMatch(/HEALTHCHECK[\s\S]*\/healthz/);
  });

  it("the s6 service scripts are executable in git and pass bash -n", async () => {
    const dir = "rootfs/etc/s6-overlay/s6-rc.d/ha-agent";
    expect((await readFile(join(root, dir, "type"), "utf8")).trim()).toBe("longrun");
    statSync(join(root, "rootfs/etc/s6-overlay/s6-rc.d/user/contents.d/ha-agent"));
    const modes = execFileSync("git", ["ls-files", "-s", dir], { cwd: root, encoding: "utf8" });
    for (const script of ["run", "finish"]) {
      const path = join(root, dir, script);
      expect(modes, `${script} is tracked as executable`).toMatch(new RegExp(`^100755 \\S+ \\d\\t${dir}/${script}$`, "m"));
      expect((statSync(path).mode & 0o111) !== 0, `${script} is executable on disk`).toBe(true);
      expect((await readFile(path, "utf8")).startsWith("#!/command/with-contenv bashio\n")).toBe(true);
      execFileSync("bash", ["-n", path]);
    }
    expect(await readFile(join(root, dir, "run"), "utf8")).toMatch(/^exec node /m);
  });

  it("the add-on starts Node with the heap flags and allocator settings of npm start", async () => {
    expect(NODE_FLAGS).toContain("--max-semi-space-size=4");
    expect(START_ENV).toEqual({ MALLOC_MMAP_THRESHOLD_: "131072" });
    const run = await readFile(join(root, "rootfs/etc/s6-overlay/s6-rc.d/ha-agent/run"), "utf8");
    expect(run).toMatch(new RegExp(`^exec node ${NODE_FLAGS.join(" ")} /app/dist/main\\.js$`, "m"));
    const exported = Object.fromEntries([...run.matchAll(/^export ([A-Z_]+)=(\S+)$/gm)].map((m) => [m[1], m[2]]));
    expect(exported).toEqual(START_ENV);
  });
});
