import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

// A real Apache with mod_auth_openidc (Debian's apache2 and libapache2-mod-auth-openidc, installed by
// test/setup.sh) as an OpenID Connect relying party of a test's authd: the configuration of docs/oidc.md's
// Apache recipe, taken from the document itself, in front of a page that shows the user's claims (SSI echoing
// the environment mod_auth_openidc fills). It runs unprivileged with its own minimal configuration, every
// file in a temporary directory.

const APACHE = "/usr/sbin/apache2";
const MODULES = "/usr/lib/apache2/modules";

/** The Apache block of docs/oidc.md, pointed at this test's authd, client and Apache. */
export function documentedApacheBlock(options: { issuer: string; origin: string; clientId: string; secret: string }) {
  const doc = readFileSync(resolve(import.meta.dirname, "../../docs/oidc.md"), "utf8");
  const block = /```apache\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error("docs/oidc.md has no apache block");
  return block
    .replaceAll("https://auth.example.com", options.issuer)
    .replaceAll("https://app.example.com", options.origin)
    .replace(/^OIDCClientID ID$/m, `OIDCClientID ${options.clientId}`)
    .replace(/^OIDCClientSecret SECRET$/m, `OIDCClientSecret ${options.secret}`)
    .replace(/^OIDCCryptoPassphrase .*$/m, "OIDCCryptoPassphrase test-passphrase-not-a-secret-0123456789");
}

/** The protected page: the claims mod_auth_openidc passes as environment variables, echoed (HTML-escaped) by SSI. */
const PROTECTED_PAGE = `<!DOCTYPE html>
<html lang="en"><head><title>Intranet</title></head><body>
<h1>Intranet</h1>
<p>sub: <span id="sub"><!--#echo var="OIDC_CLAIM_sub" --></span></p>
<p>email: <span id="email"><!--#echo var="OIDC_CLAIM_email" --></span></p>
<p>name: <span id="name"><!--#echo var="OIDC_CLAIM_name" --></span></p>
</body></html>
`;

const SIGNED_OUT_PAGE = `<!DOCTYPE html>
<html lang="en"><head><title>Signed out</title></head><body><h1>Signed out of the intranet</h1></body></html>
`;

function configuration(dir: string, port: number, documented: string): string {
  const modules = ["mpm_event", "authn_core", "authz_core", "authz_user", "include", "auth_openidc"];
  return `ServerRoot "${dir}"
ServerName 127.0.0.1
Listen 127.0.0.1:${port}
PidFile "${dir}/apache.pid"
ErrorLog "${dir}/error.log"
LogLevel warn auth_openidc:info
DefaultRuntimeDir "${dir}"
${modules.map((name) => `LoadModule ${name}_module ${MODULES}/mod_${name}.so`).join("\n")}
StartServers 1
ServerLimit 1
ThreadsPerChild 16
MaxRequestWorkers 16
MinSpareThreads 1
MaxSpareThreads 16
DocumentRoot "${dir}/htdocs"
<Directory "${dir}/htdocs">
  Options +Includes
  Require all granted
</Directory>
<Files "*.shtml">
  ForceType text/html
  SetOutputFilter INCLUDES
</Files>
# For the test only: the session as mod_auth_openidc holds it, at /protected/redirect_uri?info=json.
OIDCInfoHook iat id_token userinfo session
${documented}
# For the test only: docs/oidc.md's "Require claim groups:role:admin".
<Location /protected/admins>
  AuthType openid-connect
  Require claim groups:role:admin
</Location>
`;
}

async function waitForPort(port: number, apache: ChildProcess, log: () => string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (apache.exitCode !== null) throw new Error(`apache exited (${apache.exitCode}): ${log()}`);
    const open = await new Promise<boolean>((done) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.destroy();
        done(true);
      });
      socket.once("error", () => done(false));
    });
    if (open) return;
    await new Promise((wait) => setTimeout(wait, 50));
  }
  throw new Error(`apache did not listen: ${log()}`);
}

/** Root drops to nobody (setpriv) and hands it the directory; anyone else runs Apache as themselves. */
function unprivileged(dir: string): string[] {
  if (process.getuid?.() !== 0) return [];
  const uid = Number(execFileSync("id", ["-u", "nobody"], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", "nobody"], { encoding: "utf8" }).trim());
  for (const path of ["", "htdocs", "htdocs/protected", "htdocs/protected/admins"])
    chownSync(join(dir, path), uid, gid);
  return ["setpriv", `--reuid=${uid}`, `--regid=${gid}`, "--clear-groups", "--"];
}

export interface RunningApache {
  origin: string;
  errorLog(): string;
  stop(): Promise<void>;
}

/** Run Apache on 127.0.0.1:port with the documented relying-party block until stop(). */
export async function startApacheRelyingParty(port: number, documented: string): Promise<RunningApache> {
  if (!existsSync(APACHE) || !existsSync(`${MODULES}/mod_auth_openidc.so`))
    throw new Error("apache2 or mod_auth_openidc is not installed: run bash test/setup.sh (Debian's packages)");
  const dir = mkdtempSync(join(tmpdir(), "authd-apache-"));
  mkdirSync(join(dir, "htdocs", "protected", "admins"), { recursive: true });
  writeFileSync(join(dir, "htdocs", "protected", "page.shtml"), PROTECTED_PAGE);
  writeFileSync(join(dir, "htdocs", "protected", "admins", "page.shtml"), PROTECTED_PAGE);
  writeFileSync(join(dir, "htdocs", "signed-out.html"), SIGNED_OUT_PAGE);
  const conf = join(dir, "apache.conf");
  writeFileSync(conf, configuration(dir, port, documented));
  const command = [...unprivileged(dir), APACHE, "-f", conf, "-DFOREGROUND"];
  const apache = spawn(command[0], command.slice(1), { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  apache.stderr?.on("data", (chunk) => (stderr += chunk));
  const errorLog = () => {
    const file = join(dir, "error.log");
    return `${stderr}${existsSync(file) ? readFileSync(file, "utf8") : ""}`;
  };
  await waitForPort(port, apache, errorLog);
  return {
    origin: `http://127.0.0.1:${port}`,
    errorLog,
    async stop() {
      if (apache.exitCode === null) {
        const exited = new Promise((done) => apache.once("exit", done));
        apache.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
