// Counters and histograms kept in memory per context, rendered in the Prometheus text format (0.0.4).
// Labels are bounded: routes are the registered patterns (unknown paths share one label), never raw URLs.

const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export type SignInOutcome = "success" | "failure" | "rate_limited" | "error";
export type WebhookAttemptResult = "delivered" | "retry" | "failed";

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

export interface Metrics {
  observeRequest(route: string, method: string, status: number, seconds: number): void;
  countSignIn(outcome: SignInOutcome): void;
  countWebhookAttempt(result: WebhookAttemptResult): void;
  /** Add lines read at each render (gauges kept in the database, such as webhook deliveries). */
  addSource(render: () => Promise<string[]>): void;
  render(): Promise<string>;
}

/** What the gauges read when the metrics are rendered. */
export interface MetricsSources {
  passwordHashesInFlight(): number;
  /** Database connections (Postgres pool; SQLite counts as one). */
  poolStats(): { total: number; idle: number; waiting: number };
  /** The configured pool size (1 on SQLite). */
  poolMax: number;
}

const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
export const labels = (pairs: Record<string, string | number>) =>
  `{${Object.entries(pairs)
    .map(([name, value]) => `${name}="${escapeLabel(String(value))}"`)
    .join(",")}}`;

function observeDuration(durations: Map<string, Histogram>, route: string, seconds: number): void {
  let histogram = durations.get(route);
  if (!histogram) {
    histogram = { counts: DURATION_BUCKETS.map(() => 0), sum: 0, count: 0 };
    durations.set(route, histogram);
  }
  // Cumulative buckets: each bound counts every observation at or below it.
  for (let index = 0; index < DURATION_BUCKETS.length; index += 1) {
    if (seconds <= DURATION_BUCKETS[index]) histogram.counts[index] += 1;
  }
  histogram.sum += seconds;
  histogram.count += 1;
}

function renderHistograms(durations: Map<string, Histogram>, lines: string[]): void {
  for (const [route, histogram] of durations) {
    DURATION_BUCKETS.forEach((bound, index) => {
      lines.push(
        `authd_http_request_duration_seconds_bucket${labels({ route, le: bound })} ${histogram.counts[index]}`,
      );
    });
    lines.push(`authd_http_request_duration_seconds_bucket${labels({ route, le: "+Inf" })} ${histogram.count}`);
    lines.push(`authd_http_request_duration_seconds_sum${labels({ route })} ${histogram.sum}`);
    lines.push(`authd_http_request_duration_seconds_count${labels({ route })} ${histogram.count}`);
  }
}

/** The gauges read at render time: the password-hash queue and the database pool. */
function renderGauges(sources: MetricsSources, lines: string[]): void {
  lines.push(
    "# HELP authd_password_hash_queue_depth Password hashes and verifications waiting or running.",
    "# TYPE authd_password_hash_queue_depth gauge",
  );
  lines.push(`authd_password_hash_queue_depth ${sources.passwordHashesInFlight()}`);
  const pool = sources.poolStats();
  lines.push(
    "# HELP authd_db_pool_connections Database connections by state.",
    "# TYPE authd_db_pool_connections gauge",
  );
  lines.push(`authd_db_pool_connections${labels({ state: "total" })} ${pool.total}`);
  lines.push(`authd_db_pool_connections${labels({ state: "idle" })} ${pool.idle}`);
  lines.push(`authd_db_pool_connections${labels({ state: "in_use" })} ${pool.total - pool.idle}`);
  lines.push(
    "# HELP authd_db_pool_waiting Requests waiting for a database connection.",
    "# TYPE authd_db_pool_waiting gauge",
  );
  lines.push(`authd_db_pool_waiting ${pool.waiting}`);
  lines.push("# HELP authd_db_pool_max Configured database pool size.", "# TYPE authd_db_pool_max gauge");
  lines.push(`authd_db_pool_max ${sources.poolMax}`);
}

/** One context's metrics (see AuthContext.metrics). */
export function createMetrics(sources: MetricsSources): Metrics {
  // Keyed by a plain join of the label values; the escaped label set is built once per key, not per request.
  const requests = new Map<string, { labels: string; count: number }>();
  const durations = new Map<string, Histogram>();
  const signIns = new Map<SignInOutcome, number>();
  const webhookAttempts = new Map<WebhookAttemptResult, number>();
  const extraSources: (() => Promise<string[]>)[] = [];

  return {
    observeRequest(route, method, status, seconds) {
      const key = `${route}\n${method}\n${status}`;
      const counter = requests.get(key);
      if (counter) counter.count += 1;
      else requests.set(key, { labels: labels({ route, method, status }), count: 1 });
      observeDuration(durations, route, seconds);
    },
    countSignIn(outcome) {
      signIns.set(outcome, (signIns.get(outcome) ?? 0) + 1);
    },
    countWebhookAttempt(result) {
      webhookAttempts.set(result, (webhookAttempts.get(result) ?? 0) + 1);
    },
    addSource(render) {
      extraSources.push(render);
    },
    async render() {
      const lines: string[] = [];
      lines.push(
        "# HELP authd_http_requests_total HTTP requests by route, method and status.",
        "# TYPE authd_http_requests_total counter",
      );
      for (const { labels: set, count } of requests.values()) lines.push(`authd_http_requests_total${set} ${count}`);
      lines.push(
        "# HELP authd_http_request_duration_seconds Time to answer, by route.",
        "# TYPE authd_http_request_duration_seconds histogram",
      );
      renderHistograms(durations, lines);
      lines.push("# HELP authd_sign_in_total Sign-in attempts by outcome.", "# TYPE authd_sign_in_total counter");
      for (const outcome of ["success", "failure", "rate_limited", "error"] as const) {
        lines.push(`authd_sign_in_total${labels({ outcome })} ${signIns.get(outcome) ?? 0}`);
      }
      renderGauges(sources, lines);
      lines.push(
        "# HELP authd_webhook_attempts_total Webhook delivery attempts made by this process, by result.",
        "# TYPE authd_webhook_attempts_total counter",
      );
      for (const result of ["delivered", "retry", "failed"] as const)
        lines.push(`authd_webhook_attempts_total${labels({ result })} ${webhookAttempts.get(result) ?? 0}`);
      for (const source of extraSources) lines.push(...(await source()));
      return `${lines.join("\n")}\n`;
    },
  };
}
