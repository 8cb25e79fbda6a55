import type { AdminData, WebhookAttemptWire, WebhookEndpointWire } from "../../data.ts";
import { Confirm } from "../components/Prompt.tsx";

// What both webhooks screens do to an endpoint (send a test event, disable or enable it after a question) and
// how a request's answer reads. A request that got no 2xx is thrown, so the status line shows it in red.

/** A question waiting for y/N and what a yes does (its answer is the notice shown). */
export interface Question {
  text: string;
  run: () => Promise<string>;
}

/** The answer a request got: its status (and the error when it says more), or why none came. */
export function answerOf(attempt: WebhookAttemptWire): string {
  if (attempt.status === null) return attempt.error ?? "no answer";
  return attempt.error && attempt.error !== `HTTP ${attempt.status}`
    ? `${attempt.status} ${attempt.error}`
    : String(attempt.status);
}

/** The status line's words for a request just sent; a failure is thrown to be shown as one. */
export function outcomeOf(what: string, attempt: WebhookAttemptWire): string {
  const said = `${what}: ${answerOf(attempt)} in ${attempt.durationMs} ms`;
  if (!attempt.ok) throw new Error(`${said} (no 2xx: the receiver did not take it)`);
  return said;
}

/** `t`: a signed webhook.test message sent now to the endpoint (logged like any request). */
export async function sendTestEvent(data: AdminData, endpointId: string): Promise<string> {
  return outcomeOf(`test event sent to ${endpointId}`, await data.testWebhookEndpoint(endpointId));
}

/** `x`: pause or resume an endpoint, asked first. */
export function toggleQuestion(data: AdminData, endpoint: WebhookEndpointWire): Question {
  const { id, url, disabled } = endpoint;
  return {
    text: disabled
      ? `Enable webhook endpoint ${id} (${url})? Deliveries waiting for it are sent.`
      : `Disable webhook endpoint ${id} (${url})? Nothing is sent to it until it is enabled.`,
    run: async () => {
      await data.setWebhookEndpointDisabled(id, !disabled);
      return `webhook endpoint ${id} ${disabled ? "enabled" : "disabled"}`;
    },
  };
}

/** The y/N line for a question; a yes runs it through `run` (the screen's action, which shows the outcome). */
export function QuestionLine({
  question,
  onDone,
  run,
}: {
  question: Question;
  onDone: () => void;
  run: (work: () => Promise<string>) => void;
}) {
  return (
    <Confirm
      question={question.text}
      onAnswer={(yes) => {
        onDone();
        if (yes) run(question.run);
      }}
    />
  );
}
