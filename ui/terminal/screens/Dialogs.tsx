import { Box, Text } from "ink";
import { useState } from "react";
import { describeRate, parseDuration, parseRate } from "../../../src/durations.ts";
import type { IssueKeyOptions } from "../../data.ts";
import { Confirm, Prompt } from "../components/Prompt.tsx";

// The user screen's dialogs of several steps: a ban (reason, then how long) and issuing an API key with the
// same choices as `authd issue-api-key`. Each step is one prompt; a value that cannot be read keeps the step
// open with what is expected.

export interface Step<T> {
  label: string;
  placeholder: string;
  initial?: string;
  /** The value read, or an error message (a string starting with "expected"). */
  read(text: string, answers: T): { value?: Partial<T> } | { error: string };
}

/** A dialog of one prompt per step; esc cancels, a value that cannot be read keeps its step open. */
export function Steps<T>({
  steps,
  onDone,
  onCancel,
}: {
  steps: Step<T>[];
  onDone: (answers: T) => void;
  onCancel: () => void;
}) {
  const [index, setIndex] = useState(0);
  const [answers, setAnswers] = useState({} as T);
  const [error, setError] = useState<string>();
  const step = steps[index];
  return (
    <Box flexDirection="column">
      <Prompt
        key={index}
        label={step.label}
        initial={step.initial}
        placeholder={step.placeholder}
        onCancel={onCancel}
        onSubmit={(text) => {
          const result = step.read(text.trim(), answers);
          if ("error" in result) return setError(result.error);
          setError(undefined);
          const next = { ...answers, ...result.value };
          if (index + 1 < steps.length) {
            setAnswers(next);
            setIndex(index + 1);
          } else onDone(next);
        }}
      />
      {error ? <Text color="red">{error}</Text> : null}
    </Box>
  );
}

const seconds = (text: string): { value?: { expiresInSeconds?: number } } | { error: string } => {
  if (!text) return { value: {} };
  const ms = parseDuration(text, "s");
  return ms && ms >= 1000
    ? { value: { expiresInSeconds: Math.round(ms / 1000) } }
    : { error: "expected 30d, 12h, 15m or seconds" };
};

export function BanDialog({
  onBan,
  onCancel,
}: {
  onBan: (reason: string, expiresInSeconds?: number) => void;
  onCancel: () => void;
}) {
  return (
    <Steps<{ reason: string; expiresInSeconds?: number }>
      onCancel={onCancel}
      onDone={(answers) => onBan(answers.reason, answers.expiresInSeconds)}
      steps={[
        {
          label: "ban reason:",
          placeholder: "enter for the default reason · esc cancels",
          read: (text) => ({ value: { reason: text } }),
        },
        { label: "ban for:", placeholder: "7d, 12h, 30m · enter: until unbanned", read: seconds },
      ]}
    />
  );
}

export function IssueKeyDialog({
  banned,
  defaults,
  onIssue,
  onCancel,
}: {
  /** The owner is banned: their keys are refused while the ban lasts, so ask first. */
  banned: boolean;
  defaults: { rateLimit: { max: number; windowMs: number } | false };
  onIssue: (options: IssueKeyOptions) => void;
  onCancel: () => void;
}) {
  const [confirmed, setConfirmed] = useState(!banned);
  if (!confirmed)
    return (
      <Confirm
        question="This user is banned: their API keys are refused while the ban lasts. Issue a key anyway?"
        onAnswer={(yes) => (yes ? setConfirmed(true) : onCancel())}
      />
    );
  const defaultRate = defaults.rateLimit ? describeRate(defaults.rateLimit.max, defaults.rateLimit.windowMs) : "off";
  return (
    <Steps<IssueKeyOptions>
      onCancel={onCancel}
      onDone={onIssue}
      steps={[
        {
          label: "API key name:",
          placeholder: "optional · esc cancels",
          read: (text) => ({ value: { name: text || undefined } }),
        },
        {
          label: "rate limit:",
          placeholder: `N/PERIOD (1000/1h) or off · enter: the default, ${defaultRate.replace(" per ", "/")}`,
          read: (text) => {
            if (!text) return { value: {} };
            if (text === "off") return { value: { rateLimit: false } };
            const rate = parseRate(text);
            return rate
              ? { value: { rateLimit: { max: rate.count, windowMs: rate.periodMs } } }
              : { error: "expected N/PERIOD like 1000/1h, or off" };
          },
        },
        {
          label: "uses in all:",
          placeholder: "a number · enter: unlimited",
          read: (text) =>
            !text
              ? { value: {} }
              : /^\d+$/.test(text)
                ? { value: { remaining: Number(text) } }
                : { error: "expected a whole number" },
        },
        {
          label: "refill:",
          placeholder: "N/PERIOD (1000/1d) uses given back · enter: none",
          read: (text) => {
            if (!text) return { value: {} };
            const rate = parseRate(text);
            return rate
              ? { value: { refill: { amount: rate.count, intervalMs: rate.periodMs } } }
              : { error: "expected N/PERIOD like 1000/1d" };
          },
        },
        { label: "expires in:", placeholder: "30d, 12h · enter: never", read: seconds },
      ]}
    />
  );
}
