import { Box, Text } from "ink";
import { useRef, useState } from "react";
import { useKeys } from "../hooks/use-keys.tsx";

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
    if (key.escape) return onCancel();
    if (key.return) return onSubmit(typed.current);
    if (key.backspace || key.delete) return update(typed.current.slice(0, -1));
    if (key.ctrl || key.meta || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.tab) return;
    // Several keys can arrive in one read (a paste, key repeat, a fast terminal): apply them in order.
    let text = typed.current;
    for (const char of input) {
      if (char === "\r" || char === "\n") {
        update(text);
        return onSubmit(text);
      }
      if (char === "\u007f" || char === "\b") text = text.slice(0, -1);
      else if (char >= " ") text += char;
    }
    update(text);
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
