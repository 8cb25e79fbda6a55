/** What a screen may ask the app to do. */
export interface Navigation {
  openUser(userId: string): void;
  openOrganization(organizationId: string): void;
  /** Back to the list the detail was opened from, optionally with a message to show there. */
  back(notice?: string): void;
  nextTab(step: 1 | -1): void;
  quit(): void;
  /** One OpenID client (the clients screen, while the OpenID Provider is on). */
  openClient(clientId: string): void;
  /** One webhook endpoint's delivery log (the webhooks screen, while webhooks are on). */
  openWebhook(endpointId: string): void;
}
