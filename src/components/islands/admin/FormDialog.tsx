import { useEffect, useState, type ReactNode, type RefObject } from "react";
import { Checkbox, Dialog } from "radix-ui";
import { Check, X } from "lucide-react";
import { ghostButton, primaryButton } from "./styles";

/** The edit dialogs' frame (Radix Dialog). Only the lazily loaded UserDialog/RoleDialog import it. */
export function FormDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  // Opened by a plain button (no Radix Trigger): give focus back to whatever opened it.
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50" />
        <Dialog.Content
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            opener?.focus();
          }}
          className="fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[95vw] max-w-2xl -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-xl dark:bg-slate-900"
        >
          <div className="mb-4 flex items-start justify-between gap-4">
            <div>
              <Dialog.Title className="text-lg font-bold">{title}</Dialog.Title>
              <Dialog.Description className="text-sm text-slate-500 dark:text-slate-400">{description ?? title}</Dialog.Description>
            </div>
            <Dialog.Close aria-label="Fechar" className="rounded p-1 hover:bg-slate-100 dark:hover:bg-slate-800">
              <X className="size-5" aria-hidden="true" />
            </Dialog.Close>
          </div>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** A server message under the field it concerns (the field points here with aria-describedby). */
export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-sm font-medium text-red-700 dark:text-red-300">
      {message}
    </p>
  );
}

/** Props that tie an input to its error message. */
export function invalidProps(id: string, message?: string) {
  return message ? { "aria-invalid": true as const, "aria-describedby": `${id}-erro` } : {};
}

/** After a refusal, moves the focus to the first field the server refused (once the form is enabled again). */
export function useFocusFirstInvalid(form: RefObject<HTMLFormElement | null>, errors: object) {
  useEffect(() => {
    form.current?.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
  }, [form, errors]);
}

export function CheckItem({
  id,
  checked,
  disabled,
  onChange,
  title,
  subtitle,
  describedBy,
}: {
  id: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
  title: string;
  subtitle?: string;
  /** Id of a text that explains the choice (e.g. why it cannot be changed). */
  describedBy?: string;
}) {
  return (
    <div className="flex items-start gap-2 rounded-md p-2 hover:bg-slate-50 dark:hover:bg-slate-800">
      <Checkbox.Root
        id={id}
        checked={checked}
        disabled={disabled}
        aria-describedby={describedBy}
        onCheckedChange={(value) => onChange(value === true)}
        className="mt-0.5 flex size-5 shrink-0 items-center justify-center rounded border border-slate-400 data-[state=checked]:border-brand-600 data-[state=checked]:bg-brand-600 disabled:opacity-50"
      >
        <Checkbox.Indicator>
          <Check className="size-4 text-white" aria-hidden="true" />
        </Checkbox.Indicator>
      </Checkbox.Root>
      <label htmlFor={id} className="text-sm">
        <span className="block font-medium">{title}</span>
        {subtitle && <span className="block text-xs text-slate-500 dark:text-slate-400">{subtitle}</span>}
      </label>
    </div>
  );
}

/** The edit dialogs' footer: cancel, and the submit button of the surrounding form. */
export function DialogActions({ onCancel, submitLabel }: { onCancel: () => void; submitLabel: string }) {
  return (
    <div className="flex justify-end gap-2">
      <button type="button" className={ghostButton} onClick={onCancel}>
        Cancelar
      </button>
      <button type="submit" className={primaryButton}>
        {submitLabel}
      </button>
    </div>
  );
}
