import { readFileSync } from "node:fs";

// What the Dockerfile's runtime stage says, read from the file itself, so the image test runs what the
// image would run (user, environment, volume, health check, entry point) rather than a copy of it.

export interface RuntimeStage {
  env: Record<string, string>;
  user: string;
  volume: string;
  workdir: string;
  entrypoint: string[];
  cmd: string[];
  healthcheck: string[];
  /** uid:gid given to the volume directory in the build stage. */
  dataOwner: string;
}

function logicalLines(text: string): string[] {
  return text
    .replace(/\\\r?\n\s*/g, " ")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

export function readRuntimeStage(path: string): RuntimeStage {
  const lines = logicalLines(readFileSync(path, "utf8"));
  const fromLines = lines.map((line, i) => (line.startsWith("FROM ") ? i : -1)).filter((i) => i >= 0);
  const runtime = lines.slice(fromLines[fromLines.length - 1]);
  const value = (instruction: string) => {
    const line = runtime.find((l) => l.startsWith(`${instruction} `));
    if (!line) throw new Error(`Dockerfile: no ${instruction} in the runtime stage`);
    return line.slice(instruction.length + 1).trim();
  };
  const env: Record<string, string> = {};
  for (const line of runtime.filter((l) => l.startsWith("ENV ")))
    for (const [, key, val] of line.slice(4).matchAll(/([A-Z_][A-Z0-9_]*)=(\S+)/g)) env[key] = val;
  const chown = lines.join("\n").match(/chown (\d+:\d+) \/out\/data/);
  return {
    env,
    user: value("USER"),
    volume: (JSON.parse(value("VOLUME")) as string[])[0],
    workdir: value("WORKDIR"),
    entrypoint: JSON.parse(value("ENTRYPOINT")) as string[],
    cmd: JSON.parse(value("CMD")) as string[],
    healthcheck: JSON.parse(value("HEALTHCHECK").replace(/^.*?CMD /, "")) as string[],
    dataOwner: chown?.[1] ?? "",
  };
}
