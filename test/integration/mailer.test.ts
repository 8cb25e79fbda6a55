import { createServer, type Server, type Socket } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/load.ts";
import { createLogger, type Logger } from "../../src/logger.ts";
import { createMailer } from "../../src/mailer.ts";
import { createTestContext, signUp, type TestContext } from "../helpers/context.ts";

interface LogLine {
  level: string;
  message: string;
  fields?: Record<string, unknown>;
}

function recordingLogger(): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    void lines.push({ level, message, fields });
  return { lines, debug: at("debug"), info: at("info"), success: at("success"), warn: at("warn"), error: at("error") };
}

interface Received {
  user?: string;
  pass?: string;
  secure: boolean;
  raw: string;
}

/** A real SMTP server that requires AUTH (plain text over TLS when `secure`). */
async function startAuthServer(
  secure: boolean,
): Promise<{ port: number; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    secure,
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: secure ? [] : ["STARTTLS"],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === "mailer" && auth.password === "p@ss:word") return callback(null, { user: auth.username });
      return callback(new Error("bad credentials"));
    },
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
      stream.on("end", () => {
        received.push({ user: session.user as string | undefined, secure: session.secure, raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    port: (server.server.address() as { port: number }).port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const MAIL = { to: "someone@example.com", subject: "Hello", text: "a link: http://localhost/x" };

describe("mailer transports", () => {
  it("authenticates over smtp:// with percent-encoded credentials", async () => {
    const server = await startAuthServer(false);
    const logger = recordingLogger();
    const mailer = createMailer({
      smtpURL: `smtp://mailer:${encodeURIComponent("p@ss:word")}@127.0.0.1:${server.port}?tls=off`,
      from: "authd@example.com",
      timeoutMs: 2000,
      logger,
    });
    await mailer.send(MAIL);
    mailer.close();
    await server.close();
    expect(server.received).toHaveLength(1);
    expect(server.received[0]).toMatchObject({ user: "mailer", secure: false });
    expect(server.received[0].raw).toContain("a link: http://localhost/x");
    expect(logger.lines.filter((l) => l.level === "error")).toEqual([]);
  });

  it("speaks TLS from the first byte over smtps://", async () => {
    const server = await startAuthServer(true);
    const logger = recordingLogger();
    const mailer = createMailer({
      smtpURL: `smtps://mailer:${encodeURIComponent("p@ss:word")}@127.0.0.1:${server.port}?insecure=on`,
      from: "authd@example.com",
      timeoutMs: 2000,
      logger,
    });
    await mailer.send(MAIL);
    mailer.close();
    await server.close();
    expect(server.received).toHaveLength(1);
    expect(server.received[0]).toMatchObject({ user: "mailer", secure: true });
  });

  it("logs a refused login without throwing and without the mail body", async () => {
    const server = await startAuthServer(false);
    const logger = recordingLogger();
    const mailer = createMailer({
      smtpURL: `smtp://mailer:wrong@127.0.0.1:${server.port}?tls=off`,
      from: "authd@example.com",
      timeoutMs: 2000,
      logger,
    });
    await expect(mailer.send(MAIL)).resolves.toBeUndefined();
    mailer.close();
    await server.close();
    expect(server.received).toHaveLength(0);
    const failure = logger.lines.find((l) => l.message === "mail delivery failed");
    expect(failure?.fields).toMatchObject({ to: MAIL.to, subject: MAIL.subject });
    expect(JSON.stringify(failure)).not.toContain("http://localhost/x");
  });

  it("writes mails to the log when no SMTP server is configured: link and code on lines of their own", async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: "info", write: (line) => lines.push(line) });
    const mail = {
      ...MAIL,
      text: "Hello,\n\nopen http://localhost/x\n\n123456\n",
      kind: "verify-email",
      locale: "en",
      link: "http://localhost/x",
      code: "123456",
    };
    await createMailer({ from: "authd@example.com", timeoutMs: 1000, logger }).send(mail);
    expect(lines).toHaveLength(1);
    const [first, ...below] = lines[0].split("\n");
    expect(first).toMatch(
      /INFO {4}mail \(no SMTP configured\) to=someone@example.com subject=Hello mail=verify-email language=en$/,
    );
    // The link and the code each alone on a line, then the text, every line indented under the first.
    expect(below).toEqual([
      "  link: http://localhost/x",
      "  code: 123456",
      "  | Hello,",
      "  |",
      "  | open http://localhost/x",
      "  |",
      "  | 123456",
    ]);
  });

  it("writes the same mail as fields of one JSON line when logs are JSON", async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: "info", format: "json", write: (line) => lines.push(line) });
    await createMailer({ from: "authd@example.com", timeoutMs: 1000, logger }).send({
      ...MAIL,
      link: "http://localhost/x",
    });
    expect(JSON.parse(lines[0])).toMatchObject({
      message: "mail (no SMTP configured)",
      to: MAIL.to,
      subject: MAIL.subject,
      content: { link: "http://localhost/x", code: null, text: MAIL.text },
    });
  });

  it("refuses an SMTP URL that does not parse as a configuration error", () => {
    expect(() => loadConfig({ env: { AUTH_SMTP_URL: "smtp://exa mple:99999" } })).toThrow(ConfigError);
    expect(() => loadConfig({ env: { AUTH_SMTP_URL: "http://example.com" } })).toThrow(/AUTH_SMTP_URL/);
  });
});

describe("a stalled SMTP server", () => {
  let stalled: Server;
  const sockets: Socket[] = [];
  let t: TestContext;
  const logger = recordingLogger();
  beforeAll(async () => {
    // Accepts connections and never says a word: the SMTP greeting never comes.
    stalled = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => stalled.listen(0, "127.0.0.1", () => resolve()));
    const port = (stalled.address() as { port: number }).port;
    t = await createTestContext({
      env: { AUTH_SMTP_URL: `smtp://127.0.0.1:${port}?tls=off` },
      config: { smtpTimeoutMs: 300 },
      logger,
    });
  });
  afterAll(async () => {
    await t.close();
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => stalled.close(() => resolve()));
  });

  it("neither blocks nor half-makes a sign-up, and the failure is logged once the timeout passes", async () => {
    const { email, user } = await signUp(t);
    const accounts = await t.ctx.db.selectFrom("account").select("providerId").where("userId", "=", user.id).execute();
    expect(accounts).toEqual([{ providerId: "credential" }]);
    const reset = await t.agent().post("/request-password-reset", { email });
    expect(reset.status).toBe(200);
    await t.ctx.settle();
    const failures = logger.lines.filter((l) => l.message === "mail delivery failed");
    expect(failures.length).toBe(2);
    expect(failures[0].fields).toMatchObject({ attempts: 2 });
  });
});
