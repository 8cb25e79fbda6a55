import { Box, Text, useInput } from "ink";
import { useState } from "react";

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
  useInput((input, key) => {
    if (key.return) return onSubmit(value);
    if (key.escape) return onCancel();
    if (key.backspace || key.delete) return setValue((v) => v.slice(0, -1));
    if (key.ctrl || key.meta || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.tab) return;
    if (input) setValue((v) => v + input);
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
  useInput((input) => onAnswer(input.toLowerCase() === "y"));
  return (
    <Text color="yellow" bold>
      {`${question} [y/N]`}
    </Text>
  );
}
