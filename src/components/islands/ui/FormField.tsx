import { useState, type InputHTMLAttributes } from "react";
import { AlertTriangle, Eye, EyeOff } from "lucide-react";
import { useHydrated } from "./use-hydrated";

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string | undefined;
}

const inputClass =
  "w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 placeholder:text-slate-400 focus:border-brand-500 focus:ring-2 focus:ring-focus focus:outline-none disabled:opacity-60 aria-invalid:border-red-500 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";

export function FieldError({ id, message }: { id: string; message?: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="mt-1 flex items-center gap-1 text-sm text-red-600 dark:text-red-400">
      <AlertTriangle className="size-4 shrink-0" aria-hidden="true" />
      {message}
    </p>
  );
}

/** A labelled input with its error beneath it (warning mark + message). */
export function FormField({ label, error, id, ...input }: FieldProps & { id: string }) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        className={inputClass}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-erro` : undefined}
        {...input}
      />
      <FieldError id={`${id}-erro`} message={error} />
    </div>
  );
}

/** Password input with a show/hide toggle. */
export function PasswordField({ label, error, id, ...input }: FieldProps & { id: string }) {
  const [visible, setVisible] = useState(false);
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          type={visible ? "text" : "password"}
          className={`${inputClass} pr-10`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-erro` : undefined}
          {...input}
        />
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          disabled={input.disabled}
          aria-label={visible ? "Ocultar senha" : "Mostrar senha"}
          className="absolute inset-y-0 right-0 flex items-center px-3 text-slate-500 hover:text-slate-800 dark:hover:text-slate-200"
        >
          {visible ? <EyeOff className="size-4" aria-hidden="true" /> : <Eye className="size-4" aria-hidden="true" />}
        </button>
      </div>
      <FieldError id={`${id}-erro`} message={error} />
    </div>
  );
}

export function Spinner({ className = "size-4" }: { className?: string }) {
  return (
    <span
      role="status"
      aria-label="Carregando"
      className={`inline-block animate-spin rounded-full border-2 border-current border-t-transparent ${className}`}
    />
  );
}

/** The form's submit button: disabled while busy, and until the island runs (see useHydrated). */
export function SubmitButton({ busy, label }: { busy: boolean; label: string }) {
  const hydrated = useHydrated();
  return (
    <button
      type="submit"
      disabled={busy || !hydrated}
      className="flex w-full items-center justify-center gap-2 rounded-md bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700 disabled:opacity-70"
    >
      {busy && <Spinner />}
      {label}
    </button>
  );
}
