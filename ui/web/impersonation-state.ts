// The banner every page shows while an administrator impersonates a user (issue 32): whom the browser acts
// as, until when, and where the button that ends it posts (the console's route; null while the console is
// off, when only the API's /admin/stop-impersonating ends it).

export interface ImpersonationBanner {
  /** The impersonated user's name and address. */
  name: string;
  email: string;
  /** When the impersonation ends by itself (ISO). */
  endsAt: string;
  /** The form action of "Stop impersonating", or null. */
  stopAction: string | null;
}
