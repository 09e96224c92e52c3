import { useCallback, useRef, useState, type FormEvent } from 'react';

/** A field's check: its error message, or null when the value is fine. */
export type Check<V> = (value: V[keyof V], values: V) => string | null;

/** Field errors as antd's `form.setFields` takes them (what `showSubmitError` hands over from a 422). */
export interface FieldErrorsData {
  name?: unknown;
  errors?: string[];
}

export interface LiteForm<V extends Record<string, string | boolean>> {
  values: V;
  errors: Partial<Record<keyof V, string>>;
  setValue: <K extends keyof V>(name: K, value: V[K]) => void;
  /** `onSubmit` of the `<form>`: checks every field, focuses the first wrong one, else calls `onValid` */
  submit: (event?: FormEvent) => void;
  /** errors from the server on their fields (antd's `setFields` shape, so the shared submit-error code works) */
  setFields: (fields: FieldErrorsData[]) => void;
  /** a ref for a field's input: the first wrong field is focused on submit */
  inputRef: (name: keyof V) => (element: HTMLInputElement | null) => void;
}

/**
 * The sign-in forms' state without antd's Form: values, each field's checks (run on submit, then again as a
 * field that was wrong is typed in, as antd does), errors from the server on their fields.
 */
export function useLiteForm<V extends Record<string, string | boolean>>(
  initial: V,
  checks: { [K in keyof V]?: Check<V>[] },
  onValid: (values: V) => void | Promise<void>,
): LiteForm<V> {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof V, string>>>({});
  const inputs = useRef(new Map<keyof V, HTMLInputElement>());
  const latest = useRef({ checks, onValid });
  latest.current = { checks, onValid };

  const errorOf = (name: keyof V, all: V): string | undefined => {
    for (const check of latest.current.checks[name] ?? []) {
      const message = check(all[name], all);
      if (message) return message;
    }
    return undefined;
  };

  const setValue = <K extends keyof V>(name: K, value: V[K]) => {
    const next = { ...values, [name]: value };
    setValues(next);
    // a field shown wrong is checked again as it changes (a server's error on it goes away)
    if (errors[name] !== undefined) setErrors((e) => ({ ...e, [name]: errorOf(name, next) }));
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const found: Partial<Record<keyof V, string>> = {};
    for (const name of Object.keys(values) as (keyof V)[]) {
      const message = errorOf(name, values);
      if (message) found[name] = message;
    }
    setErrors(found);
    const wrong = (Object.keys(values) as (keyof V)[]).find((name) => found[name]);
    if (wrong !== undefined) {
      inputs.current.get(wrong)?.focus();
      return;
    }
    void latest.current.onValid(values);
  };

  const setFields = useCallback((fields: FieldErrorsData[]) => {
    setErrors((e) => {
      const next = { ...e };
      for (const field of fields) {
        const name = (Array.isArray(field.name) ? field.name[0] : field.name) as keyof V;
        next[name] = field.errors?.[0];
      }
      return next;
    });
  }, []);

  const inputRef = (name: keyof V) => (element: HTMLInputElement | null) => {
    if (element) inputs.current.set(name, element);
    else inputs.current.delete(name);
  };

  return { values, errors, setValue, submit, setFields, inputRef };
}
