// Puts Foundry VTT's v13 type definitions into node_modules for `tsc` (npm run types).
//
// `npm install @league-of-foundry-developers/foundry-vtt-types` cannot work here: the package depends
// on GitHub-hosted pixi forks. Its registry tarball alone is all tsc needs (with skipLibCheck), so
// this fetches that tarball with `npm pack` (the registry, through npm's cache), checks it against
// the pinned integrity, and unpacks it. It runs before every type check because `npm install` and
// `npm ci` prune folders they did not install; when the right version is already there it does
// nothing.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const NAME = "@league-of-foundry-developers/foundry-vtt-types";
const VERSION = "13.345.1";
const INTEGRITY =
  "sha512-7lWpbriLGK0gd6XLC/srYCdzAEkhb+YJoU/9ygefBHqq55ce2zKtm8/zFn8zFmZJlwEa2RUUEPqGmKDLU3tmvw==";

const moduleRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const target = join(moduleRoot, "node_modules", ...NAME.split("/"));
const manifest = join(target, "package.json");

if (existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).version === VERSION) process.exit(0);

const work = mkdtempSync(join(tmpdir(), "volley-fvtt-types-"));
try {
  const npm = process.env.npm_execpath;
  const [command, args] = npm && npm.endsWith(".js") ? [process.execPath, [npm]] : ["npm", []];
  const out = execFileSync(command, [...args, "pack", `${NAME}@${VERSION}`, "--json", "--pack-destination", work], {
    cwd: work,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [{ filename }] = JSON.parse(out);
  const tarball = join(work, filename);
  const digest = `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`;
  if (digest !== INTEGRITY) throw new Error(`${NAME}@${VERSION}: integrity ${digest} != pinned ${INTEGRITY}`);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  execFileSync("tar", ["-xzf", tarball, "-C", target, "--strip-components=1"], { stdio: "inherit" });
  console.error(`install-foundry-types: unpacked ${NAME}@${VERSION}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
