// A refusal of the OAuth protocol (RFC 6749 §4.1.2.1 and §5.2): an error code from the protocol's list and
// a description for the developer of the client. The HTTP layer answers it as the protocol says (a
// redirect back to the client, or JSON with 400/401); it never becomes authd's {code, message}.

export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "invalid_scope"
  | "access_denied"
  | "login_required"
  | "consent_required"
  | "request_not_supported"
  | "request_uri_not_supported"
  | "invalid_token";

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description);
    this.name = "OAuthError";
  }

  toBody(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}
