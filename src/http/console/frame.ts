import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type AdminData, createAdminData } from "../../../ui/data.ts";
import { consoleEn } from "../../../ui/shared/messages/console.ts";
import {
  CONSOLE_PATH,
  CONSOLE_SCREENS,
  type ConsoleFrame,
  type ConsoleScreen,
  type ConsoleStates,
  type FormProblem,
} from "../../../ui/web/state.ts";
import type { AuthContext } from "../../context.ts";
import type { PermissionRequest } from "../../services/access-control.ts";
import {
  type AdminActor,
  actorFor,
  adminStatements,
  decideAdminPermission,
  holdsAnyAdminPermission,
} from "../../services/admin.ts";
import type { EventSource } from "../../services/security-events.ts";
import { type FormFields, guardForm } from "../pages/guard.ts";
import { linkFailure } from "../pages/mailed-links.ts";
import { commonState } from "../pages/page-state.ts";
import { pageRefusal, pageURL, renderPage, seeOther } from "../pages/respond.ts";
import { adminRequestSource } from "../security-log.ts";
import { type ResolvedSession, resolveSession } from "../session.ts";
import { offeredScreens } from "./routes.ts";

// What every console screen and action shares on the server (docs/console.md): the browser's own session,
// held by a user with an admin permission, and the one permission each screen or action asks for, decided
// by the same access-control engine as the /admin API. Screens read and act only through AdminData
// (ui/data.ts), made for this admin so every event names them and where they came from. Forms pass the
// pages' guard (Origin, anti-forgery token) first; a refusal is drawn on the screen it came from.

export interface ConsoleAccess {
  session: ResolvedSession;
  actor: AdminActor;
  source: EventSource;
  data: AdminData;
}

/** A screen's own part of its state: everything but the common part and the frame, which are added here. */
export type ScreenBody = ConsoleStates extends infer S ? (S extends unknown ? Omit<S, "console"> : never) : never;

export type ConsoleHandler = (c: Context, ctx: AuthContext) => Promise<Response>;

/** The screen each navigation entry needs the permission for. */
export const SCREEN_PERMISSIONS: Record<ConsoleScreen, PermissionRequest> = {
  overview: { user: ["list"] },
  users: { user: ["list"] },
  organizations: { organization: ["list"] },
  "api-keys": { apiKey: ["list"] },
  audit: { audit: ["list"] },
  webhooks: { webhook: ["list"] },
  clients: { oauthClient: ["list"] },
  settings: { settings: ["read"] },
  mail: { settings: ["read"] },
};

/** Every admin action `actor` holds, resource by resource (what the screens show or hide). */
function heldPermissions(ctx: AuthContext, actor: AdminActor): Record<string, string[]> {
  const held: Record<string, string[]> = {};
  for (const [resource, actions] of Object.entries(adminStatements)) {
    const mine = actions.filter((action) => decideAdminPermission(ctx, actor, { [resource]: [action] }).allowed);
    if (mine.length > 0) held[resource] = mine;
  }
  return held;
}

const allows = (ctx: AuthContext, actor: AdminActor, permission: PermissionRequest) =>
  decideAdminPermission(ctx, actor, permission).allowed;

/**
 * The signed-in admin asking for `permission`, or the answer instead: through sign-in and back when signed
 * out (an API key or a bearer token is not a browser), the refusal page when the user holds no admin
 * permission or not this one (403).
 */
export async function consoleAccess(
  c: Context,
  ctx: AuthContext,
  permission: PermissionRequest,
): Promise<{ access: ConsoleAccess } | { answer: Response }> {
  const session = await resolveSession(c, ctx);
  if (session?.source !== "cookie") {
    const back = c.req.method === "GET" ? `${c.req.path}${new URL(c.req.url).search}` : CONSOLE_PATH;
    return { answer: c.redirect(pageURL(ctx, "/sign-in", back), 302) };
  }
  const actor = actorFor(false, session.user);
  if (!holdsAnyAdminPermission(ctx, session.user)) return { answer: await linkFailure(c, ctx, "CONSOLE_REFUSED", 403) };
  if (!allows(ctx, actor, permission)) return { answer: await linkFailure(c, ctx, "CONSOLE_NOT_PERMITTED", 403) };
  const source = adminRequestSource(c, ctx, actor);
  return { access: { session, actor, source, data: createAdminData(ctx, source) } };
}

const isConsoleNotice = (value: string | undefined): value is string =>
  value?.includes(".notice.") === true && Object.hasOwn(consoleEn, value);

/** The screens of the navigation: those mounted (`offered`) that this admin may open. */
export function consoleFrame(
  c: Context,
  ctx: AuthContext,
  access: ConsoleAccess,
  screen: ConsoleScreen,
  offered: ReadonlySet<ConsoleScreen>,
): ConsoleFrame {
  const { user } = access.session;
  const notice = c.req.query("notice");
  return {
    screen,
    admin: { id: user.id, name: user.name, email: user.email },
    screens: CONSOLE_SCREENS.filter((each) => offered.has(each) && allows(ctx, access.actor, SCREEN_PERMISSIONS[each])),
    may: heldPermissions(ctx, access.actor),
    notice: isConsoleNotice(notice) ? notice : null,
  };
}

/** Draws a screen for an admin already let in: with a problem to show, in the status given. */
export type DrawScreen = (
  c: Context,
  ctx: AuthContext,
  access: ConsoleAccess,
  problem?: FormProblem | null,
  status?: ContentfulStatusCode,
) => Promise<Response>;

export interface ConsoleScreenHandlers {
  show: ConsoleHandler;
  draw: DrawScreen;
}

/**
 * A console screen: `build` makes its own part of the state (reading through `access.data`; null: what
 * the URL names does not exist, 404), drawn in the frame of `screen` for an admin holding `permission`.
 */
export function consoleScreen(
  screen: ConsoleScreen,
  permission: PermissionRequest,
  build: (c: Context, ctx: AuthContext, access: ConsoleAccess) => Promise<ScreenBody | null>,
): ConsoleScreenHandlers {
  const draw: DrawScreen = async (c, ctx, access, problem = null, status = 200) => {
    const body = await build(c, ctx, access);
    if (!body) return linkFailure(c, ctx, "NOT_FOUND", 404);
    const frame = consoleFrame(c, ctx, access, screen, offeredScreens(ctx));
    return renderPage(c, ctx, { ...commonState(c, ctx, { problem, redirect: null }), ...body, console: frame }, status);
  };
  const show: ConsoleHandler = async (c, ctx) => {
    const allowed = await consoleAccess(c, ctx, permission);
    if ("answer" in allowed) return allowed.answer;
    return draw(c, ctx, allowed.access);
  };
  return { show, draw };
}

/** A non-negative whole number from the query, else `fallback`. */
export function queryNumber(value: string | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const number = Number(value);
  return Number.isSafeInteger(number) && number >= 0 ? Math.min(number, max) : fallback;
}

/** After an action: back to `path` under /console with what was done (a console.*.notice.* key). */
export function backTo(c: Context, path: string, notice?: string): Response {
  const query = notice ? `?${new URLSearchParams({ notice })}` : "";
  return seeOther(c, `${CONSOLE_PATH}${path}${query}`);
}

/**
 * A console form: the guard (Origin, anti-forgery token, plain fields), the admin holding `permission`,
 * then `act` runs through `access.data` and answers where to go back to with the notice to show
 * (`{ to, notice }`) or a Response of its own. A refusal (a catalogue error) redraws the screen (`draw`)
 * with it; nothing else is caught.
 */
export function consoleAction(
  permission: PermissionRequest,
  draw: DrawScreen,
  act: (
    c: Context,
    ctx: AuthContext,
    access: ConsoleAccess,
    fields: FormFields,
  ) => Promise<{ to: string; notice?: string } | Response>,
): ConsoleHandler {
  return async (c, ctx) => {
    const guarded = await guardForm(c, ctx);
    if (!guarded.ok) return linkFailure(c, ctx, guarded.problem, 403);
    const allowed = await consoleAccess(c, ctx, permission);
    if ("answer" in allowed) return allowed.answer;
    try {
      const done = await act(c, ctx, allowed.access, guarded.fields);
      return done instanceof Response ? done : backTo(c, done.to, done.notice);
    } catch (error) {
      const { code, status } = pageRefusal(error);
      return draw(c, ctx, allowed.access, { code }, status);
    }
  };
}
