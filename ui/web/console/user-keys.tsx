import { type ConsoleUserApiKey, type ConsoleUserState, mayDo } from "../console-state.ts";
import { useConsole } from "./context.tsx";
import { Check, Choice, ConfirmBox, duration, Input, minute, Section, UserForm } from "./user-parts.tsx";

// A user's API keys: each with its limits (uses left, refill, rate limit, expiry, permissions), a form to
// change them (a <details>, so it works without JavaScript) and one to revoke it; and the form that issues a
// key for the user, whose answer shows the new key this once.

export function ApiKeysSection({ state }: { state: ConsoleUserState }) {
  const { t, frame } = useConsole();
  return (
    <Section id="api-keys" title="console.user.keys">
      {state.issuedKey ? (
        <div className="authd-console-issued" role="status">
          <p>{t("console.user.keyIssued")}</p>
          <p>
            <code className="authd-console-secret">{state.issuedKey.key}</code>
          </p>
        </div>
      ) : null}
      {state.apiKeys.length === 0 ? <p>{t("console.none")}</p> : null}
      {state.apiKeys.map((key) => (
        <KeyItem key={key.id} apiKey={key} />
      ))}
      {mayDo(frame, "apiKey", "create") ? (
        <details className="authd-console-details">
          <summary>{t("console.user.keyIssue")}</summary>
          <UserForm verb="issue-api-key" form="issue-key" label="console.user.keyIssueAction">
            <Input name="name" label="console.user.keyName" maxLength={64} />
            <KeyLimitFields />
            <Input name="permissions" label="console.user.keyPermissions" hint="console.user.keyPermissionsHint" />
          </UserForm>
        </details>
      ) : null}
    </Section>
  );
}

function KeyLimitFields({ change }: { change?: boolean }) {
  return (
    <>
      <Input name="expiresDays" label="console.user.keyExpiresDays" inputMode="numeric" />
      {change ? <Check name="neverExpires" label="console.user.keyNeverExpires" /> : null}
      <Input name="remaining" label="console.user.keyRemaining" inputMode="numeric" />
      <Input name="refillAmount" label="console.user.keyRefillAmount" inputMode="numeric" />
      <Input name="refillDays" label="console.user.keyRefillDays" inputMode="numeric" />
      <Input name="rateLimitMax" label="console.user.keyRateMax" inputMode="numeric" />
      <Input name="rateLimitSeconds" label="console.user.keyRateSeconds" inputMode="numeric" />
      <Check name="rateLimitOff" label="console.user.keyRateOffChoice" />
    </>
  );
}

function KeyItem({ apiKey }: { apiKey: ConsoleUserApiKey }) {
  const { t, frame } = useConsole();
  const form = `key-${apiKey.id}`;
  const refill =
    apiKey.refillAmount && apiKey.refillInterval
      ? t("console.user.keyRefill", {
          amount: apiKey.refillAmount,
          every: duration(t, Math.round(apiKey.refillInterval / 1000)),
        })
      : t("console.none");
  const rate =
    apiKey.rateLimitEnabled && apiKey.rateLimitMax && apiKey.rateLimitTimeWindow
      ? t("console.user.keyRate", {
          max: apiKey.rateLimitMax,
          window: duration(t, Math.max(60, Math.round(apiKey.rateLimitTimeWindow / 1000))),
        })
      : t("console.user.keyRateOff");
  return (
    <article className="authd-console-item" aria-label={apiKey.name || apiKey.id}>
      <h3 className="authd-console-subheading">
        {apiKey.name || t("console.user.keyUnnamed")}{" "}
        <span className="authd-console-secondary">
          {apiKey.start ? `${apiKey.start}…` : apiKey.id}
          {apiKey.enabled ? "" : ` · ${t("console.user.keyDisabled")}`}
        </span>
      </h3>
      <dl className="authd-console-facts">
        <div>
          <dt>{t("console.user.keyRemaining")}</dt>
          <dd>{apiKey.remaining ?? t("console.user.keyUnlimited")}</dd>
        </div>
        <div>
          <dt>{t("console.user.keyRefillLabel")}</dt>
          <dd>{refill}</dd>
        </div>
        <div>
          <dt>{t("console.user.keyRateLabel")}</dt>
          <dd>{rate}</dd>
        </div>
        <div>
          <dt>{t("console.user.keyExpires")}</dt>
          <dd>{minute(apiKey.expiresAt, t("console.never"))}</dd>
        </div>
        <div>
          <dt>{t("console.user.keyLastUsed")}</dt>
          <dd>{minute(apiKey.lastRequest, t("console.never"))}</dd>
        </div>
        <div>
          <dt>{t("console.user.keyPermissions")}</dt>
          <dd>{apiKey.permissions ?? t("console.none")}</dd>
        </div>
      </dl>
      {mayDo(frame, "apiKey", "update") ? (
        <details className="authd-console-details">
          <summary>{t("console.user.keyChange")}</summary>
          <UserForm
            verb="update-api-key"
            form={form}
            label="console.user.keyChangeAction"
            fields={{ keyId: apiKey.id }}
          >
            <p className="authd-hint">{t("console.user.keyChangeHint")}</p>
            <KeyLimitFields change />
            <Choice
              name="enabled"
              label="console.user.keyState"
              value=""
              options={[
                ["", t("console.user.keyStateKeep")],
                ["yes", t("console.user.keyEnable")],
                ["no", t("console.user.keyDisable")],
              ]}
            />
          </UserForm>
        </details>
      ) : null}
      {mayDo(frame, "apiKey", "revoke") ? (
        <UserForm
          verb="revoke-api-key"
          form={`revoke-${form}`}
          label="console.user.keyRevoke"
          fields={{ keyId: apiKey.id }}
          danger
        >
          <ConfirmBox />
        </UserForm>
      ) : null}
    </article>
  );
}
