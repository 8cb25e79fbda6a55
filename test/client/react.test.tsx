// @vitest-environment happy-dom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuthClient, type ReactAuthClient } from "../../src/client/react.ts";
import { type Daemon, startDaemon } from "../helpers/daemon.ts";
import { uniqueEmail } from "./helpers.ts";

// useSession() rendered by react-dom in a DOM (happy-dom), against a real authd in a child process. The
// page is http://localhost:3000 (happy-dom's default) and calls authd on another port with happy-dom's own
// fetch: CORS with credentials and cookies as a browser handles them.

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function SessionView({
  client,
  onRender,
}: {
  client: ReactAuthClient;
  onRender?: (refetch: () => Promise<void>) => void;
}) {
  const { data, error, isPending, refetch } = client.useSession();
  onRender?.(refetch);
  if (isPending) return <p>loading</p>;
  if (error) return <p>error {error.code}</p>;
  return <p>{data ? `signed in as ${data.user.name}` : "signed out"}</p>;
}

describe("useSession with react-dom", () => {
  let daemon: Daemon;
  let baseURL: string;
  let container: HTMLElement;
  let root: Root;
  beforeAll(async () => {
    // Cookies are per host, not per port: the page (localhost:3000) and authd (localhost:PORT) are one site.
    // The readiness probe uses the runtime's fetch: happy-dom's would log every refused connection.
    const pageFetch = globalThis.fetch;
    globalThis.fetch = Bun.fetch;
    try {
      daemon = await startDaemon(["node_modules/.bin/bun", "bin/authd.ts"], {
        AUTH_TRUSTED_ORIGINS: window.location.origin,
        AUTH_RATE_LIMIT: "off",
      });
    } finally {
      globalThis.fetch = pageFetch;
    }
    baseURL = `http://localhost:${daemon.port}`;
  });
  afterAll(async () => {
    await daemon?.stop();
  });

  async function render(client: ReactAuthClient, onRender?: (refetch: () => Promise<void>) => void) {
    container = document.createElement("div");
    document.body.append(container);
    root = createRoot(container);
    await act(async () => root.render(<SessionView client={client} onRender={onRender} />));
  }

  /** Waits inside act() so the store's timer-driven updates render as they would in a browser. */
  async function textEventually(expected: string) {
    const deadline = Date.now() + 5000;
    while (container.textContent !== expected && Date.now() < deadline) {
      await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    }
    expect(container.textContent).toBe(expected);
  }

  it("shows pending, then signed out, then the user after sign-up, then signed out after sign-out", async () => {
    const client = createAuthClient({ baseURL });
    await render(client);
    expect(["loading", "signed out"]).toContain(container.textContent);
    await textEventually("signed out");

    await act(async () => {
      await client.signUp.email({ name: "Hook User", email: uniqueEmail("hook"), password: "correct-horse-battery" });
    });
    await textEventually("signed in as Hook User");

    await act(async () => {
      await client.signOut();
    });
    await textEventually("signed out");
    await act(async () => root.unmount());
  });

  it("refetch() picks up a session created elsewhere with the same cookies", async () => {
    const client = createAuthClient({ baseURL });
    let refetch: (() => Promise<void>) | undefined;
    await render(client, (fn) => {
      refetch = fn;
    });
    await textEventually("signed out");
    // Another client sharing the cookie jar (another tab) signs in; this one learns of it on refetch.
    const otherTab = createAuthClient({ baseURL });
    await otherTab.signUp.email({ name: "Other Tab", email: uniqueEmail("tab"), password: "correct-horse-battery" });
    expect(container.textContent).toBe("signed out");
    await act(async () => {
      await refetch?.();
    });
    await textEventually("signed in as Other Tab");
    await act(async () => root.unmount());
  });

  it("sends the browser to the url of an answer that says redirect", async () => {
    const client = createAuthClient({ baseURL });
    const email = uniqueEmail("redirect");
    await client.signUp.email({ name: "Redirected", email, password: "correct-horse-battery" });
    const target = `${window.location.origin}/dashboard`;
    const { data } = await client.signIn.email({ email, password: "correct-horse-battery", callbackURL: target });
    expect(data).toMatchObject({ redirect: true, url: target });
    expect(window.location.href).toBe(target);
  });
});
