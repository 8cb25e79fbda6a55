// @simplewebauthn/server loads on the first passkey ceremony, not at start-up: with its certificate and
// ASN.1 stack it costs the daemon about 10 MB of memory and tens of milliseconds of start-up whether or
// not passkeys are enabled (issue 17).

let loading: Promise<typeof import("@simplewebauthn/server")> | undefined;

export function loadWebAuthn(): Promise<typeof import("@simplewebauthn/server")> {
  loading ??= (async () => {
    // @peculiar/x509 (under @simplewebauthn/server) imports the reflect-metadata polyfill before tsyringe,
    // which throws while loading when the polyfill is missing. In a lazily loaded part of Bun's bundle a
    // CommonJS import runs after the ES modules imported beside it, so the polyfill must be loaded first.
    await import("reflect-metadata");
    return import("@simplewebauthn/server");
  })();
  return loading;
}
