import { useState, type FormEvent } from "react";
import { validateForm, type FormRules } from "../../../lib/auth/rules";

/**
 * Form state for the account forms: validate on submit, re-validate on every change after the first
 * submit, focus the first wrong field, and report `busy` while `onValid` runs. The fields stay
 * uncontrolled (read with FormData), so typing costs no re-render. Replaces react-hook-form + zod on
 * /auth, whose 20 KB gzip would not fit the page's JS budget (docs/decisions.md).
 */
export function useValidatedForm<F extends string>(rules: FormRules<F>, onValid: (values: Record<F, string>) => Promise<unknown>) {
  const [errors, setErrors] = useState<Partial<Record<F, string>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);

  const read = (form: HTMLFormElement) => {
    const values: Record<string, string> = {};
    for (const [name, value] of new FormData(form)) if (typeof value === "string") values[name] = value;
    return values as Record<F, string>;
  };

  return {
    errors,
    busy,
    formProps: {
      noValidate: true,
      onChange(event: FormEvent<HTMLFormElement>) {
        if (submitted) setErrors(validateForm(rules, read(event.currentTarget)));
      },
      async onSubmit(event: FormEvent<HTMLFormElement>) {
        event.preventDefault();
        const form = event.currentTarget;
        const values = read(form);
        const found = validateForm(rules, values);
        setSubmitted(true);
        setErrors(found);
        const firstWrong = (Object.keys(rules) as F[]).find((field) => found[field]);
        if (firstWrong) {
          const input = form.elements.namedItem(firstWrong);
          if (input instanceof HTMLElement) input.focus();
          return;
        }
        setBusy(true);
        try {
          await onValid(values);
        } finally {
          setBusy(false);
        }
      },
    },
  };
}
