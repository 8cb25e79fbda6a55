// npm run build:client → clients/js/dist: the @authd/client package (and @authd/client/react) as ES modules
// with type declarations; `npm pack ./clients/js` then makes its tarball.
// `--outdir PATH` builds elsewhere (the example-app test builds its own copy). Runs under Bun or Node.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { build } from "esbuild";

const root = resolve(new URL("..", import.meta.url).pathname);
const outdirFlag = process.argv.indexOf("--outdir");
const outdir = resolve(outdirFlag > 0 ? process.argv[outdirFlag + 1] : join(root, "clients/js/dist"));

const started = performance.now();
rmSync(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: { index: join(root, "src/client/index.ts"), react: join(root, "src/client/react.ts") },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  // neutral: no Node or browser built-ins are assumed; the client must run in both.
  platform: "neutral",
  target: "es2020",
  external: ["react"],
  sourcemap: true,
  metafile: true,
  logLevel: "warning",
});
const imported = new Set(
  Object.values(result.metafile.outputs).flatMap((output) =>
    output.imports.filter((i) => i.external).map((i) => i.path),
  ),
);
const unexpected = [...imported].filter((path) => path !== "react");
if (unexpected.length > 0) {
  console.error(`the client must not import platform modules: ${unexpected.join(", ")}`);
  process.exit(1);
}

// Declarations from the client's own tsconfig (no Bun types, DOM lib), with .js specifiers.
const tsc = spawnSync(
  join(root, "node_modules/.bin/tsc"),
  ["-p", join(root, "src/client/tsconfig.json"), "--outDir", outdir],
  { encoding: "utf8" },
);
if (tsc.status !== 0) {
  console.error(tsc.stdout, tsc.stderr);
  process.exit(1);
}
for (const file of readdirSync(outdir).filter((name) => name.endsWith(".d.ts"))) {
  const path = join(outdir, file);
  writeFileSync(path, readFileSync(path, "utf8").replace(/(from\s+["']\.\/[\w-]+)\.ts(["'])/g, "$1.js$2"));
}
console.log(`built ${outdir} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
