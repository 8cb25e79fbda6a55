import type { AuthContext } from "../../context.ts";
import { describeFailure, describeTarget } from "../../dependencies.ts";
import { iso } from "../../wire/common.ts";
import type { DependencyHealth } from "../../wire/settings.ts";
import { webhookWorkerHealth } from "../webhooks/worker-health.ts";

// The health of what the daemon depends on, checked now (the console's settings screen): the database,
// Redis and the SMTP server when configured, each with one round trip under a time limit, and the webhook
// worker. Failures read as `describeFailure` words them: a few words, never a URL's password.

const CHECK_TIMEOUT_MS = 3000;

export type { DependencyHealth };

function within(work: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timed out")), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

async function check(
  name: DependencyHealth["name"],
  url: string,
  work: () => Promise<unknown>,
): Promise<DependencyHealth> {
  const started = performance.now();
  try {
    await within(work(), CHECK_TIMEOUT_MS);
    return {
      name,
      status: "up",
      target: describeTarget(url),
      latencyMs: Math.round(performance.now() - started),
      error: null,
    };
  } catch (error) {
    const { reason } = describeFailure(error);
    return { name, status: "down", target: describeTarget(url), latencyMs: null, error: reason };
  }
}

const off = (name: DependencyHealth["name"]): DependencyHealth => ({
  name,
  status: "off",
  target: null,
  latencyMs: null,
  error: null,
});

/** Every dependency's health, checked at once. */
export async function checkDependencies(ctx: AuthContext): Promise<DependencyHealth[]> {
  const { databaseURL, redisURL, smtpURL } = ctx.config;
  const storage = ctx.secondaryStorage;
  const [database, redis, smtp, worker] = await Promise.all([
    check("database", databaseURL, () => ctx.database.ping()),
    redisURL && storage ? check("redis", redisURL, () => storage.check()) : off("redis"),
    smtpURL ? check("smtp", smtpURL, () => ctx.mailer.verify()) : off("smtp"),
    webhookWorkerHealth(ctx),
  ]);
  const webhookWorker: DependencyHealth = {
    name: "webhookWorker",
    status: worker.status,
    target: null,
    latencyMs: null,
    error: worker.error,
    reason: worker.reason,
    lastPassAt: iso(worker.lastPassAt),
    overdueDeliveries: worker.overdueDeliveries,
  };
  return [database, redis, smtp, webhookWorker];
}
