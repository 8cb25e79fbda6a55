import { toMinute } from "../../shared/dates.ts";
import { HiddenFields } from "./form.tsx";
import { usePage } from "./page-context.tsx";

// While an administrator impersonates a user, every page says so first: whom the browser acts as, until
// when, and a button that ends it (a plain form post, so it works without JavaScript) and brings the
// administrator's own session back.

export function ImpersonationBanner() {
  const { t, state } = usePage();
  const banner = state.impersonating;
  if (!banner) return null;
  const time = toMinute(banner.endsAt) ?? "";
  return (
    <aside className="authd-impersonation" aria-label={t("impersonation.label")}>
      <p className="authd-impersonation-text">
        {t("impersonation.banner", { name: banner.name || banner.email, email: banner.email, time })}
      </p>
      {banner.stopAction ? (
        <form method="post" action={banner.stopAction} className="authd-impersonation-stop">
          <HiddenFields />
          <button type="submit" className="authd-button authd-button-secondary">
            {t("impersonation.stop")}
          </button>
        </form>
      ) : (
        <p className="authd-impersonation-text">{t("impersonation.stopElsewhere")}</p>
      )}
    </aside>
  );
}
