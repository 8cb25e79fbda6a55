import { Box, Text } from "ink";
import { useKeys } from "../hooks/use-keys.tsx";
import { useRef, useState } from "react";

export interface PromptProps {
  label: string;
  initial?: string;
  placeholder?: string;
  onSubmit: (value: string) => void;
  onCancel: () => void;
}

/** One line of text input: enter submits, esc cancels. While shown it owns the keyboard. */
export function Prompt({ label, initial = "", placeholder, onSubmit, onCancel }: PromptProps) {
  const [value, setValue] = useState(initial);
  // The text as typed so far, ahead of rendering: enter pressed right after typing submits all of it.
  const typed = useRef(initial);
  const update = (next: string) => {
    typed.current = next;
    setValue(next);
  };
  useKeys((input, key) => {
    if (key.return) return onSubmit(typed.current);
    if (key.escape) return onCancel();
    if (key.backspace || key.delete) return update(typed.current.slice(0, -1));
    if (key.ctrl || key.meta || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.tab) return;
    if (input) update(typed.current + input);
  });
  return (
    <Box>
      <Text color="cyan" bold>{`${label} `}</Text>
      <Text>{value}</Text>
      <Text inverse> </Text>
      {!value && placeholder ? <Text dimColor>{` ${placeholder}`}</Text> : null}
    </Box>
  );
}

export interface ConfirmProps {
  question: string;
  onAnswer: (yes: boolean) => void;
}

/** A yes/no question: y confirms, any other key declines. */
export function Confirm({ question, onAnswer }: ConfirmProps) {
  useKeys((input) => onAnswer(input.toLowerCase() === "y"));
  return (
    <Text color="yellow" bold>
      {`${question} [y/N]`}
    </Text>
  );
}
