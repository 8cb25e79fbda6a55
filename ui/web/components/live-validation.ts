import { type FocusEvent, type FormEvent, useRef, useState } from "react";

// Live validation, with JavaScript: a field the person has changed is checked as they leave it, by the
// browser's own checks of the attributes the server drew (required, type="email", minLength), and once a
// problem shows it is checked again as they type, so it goes as soon as it is fixed. It tells earlier what
// the server would answer, in the same words; it never holds a form back: the server's rules decide.

/** The error code (as the API names it) of the first check an input fails, or null. */
export function constraintProblem(input: HTMLInputElement): string | null {
  const { validity, type } = input;
  if (validity.valueMissing) return "REQUIRED";
  if (validity.typeMismatch && type === "email") return "INVALID_EMAIL";
  if (validity.tooShort && type === "password") return "PASSWORD_TOO_SHORT";
  if (validity.tooLong && type === "password") return "PASSWORD_TOO_LONG";
  return null;
}

export interface LiveValidation {
  /** The code of the problem found, or null. */
  problem: string | null;
  onInput: (event: FormEvent<HTMLInputElement>) => void;
  onBlur: (event: FocusEvent<HTMLInputElement>) => void;
}

export function useLiveValidation(): LiveValidation {
  const [problem, setProblem] = useState<string | null>(null);
  // Leaving a field untouched says nothing: only what the person typed is judged.
  const edited = useRef(false);
  return {
    problem,
    onInput(event) {
      edited.current = true;
      if (problem) setProblem(constraintProblem(event.currentTarget));
    },
    onBlur(event) {
      if (edited.current) setProblem(constraintProblem(event.currentTarget));
    },
  };
}
