// bun run build → dist/authd: one self-contained executable (Bun runtime, code, migrations, UI assets).
import { $ } from "bun";

const started = performance.now();
await $`rm -rf dist && mkdir -p dist`;
const result = await Bun.build({
  entrypoints: ["bin/authd.ts"],
  compile: { outfile: "dist/authd" },
  minify: true,
  sourcemap: "linked",
  external: ["pg-native"],
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log(`built dist/authd in ${((performance.now() - started) / 1000).toFixed(1)} s`);
