import type { ReactNode } from "react";
import { AlertDialog, Checkbox, Dialog } from "radix-ui";
import { Check, X } from "lucide-react";
import { toast } from "sonner";
import { postJson, UNEXPECTED_ERROR } from "../../../lib/api-client";
import { roleLabel } from "../../../lib/admin/labels";

export const buttonClass = "inline-flex items-center gap-2 rounded-md px-3 py-2 text-sm font-semibold disabled:opacity-60";
export const primaryButton = `${buttonClass} bg-brand-600 text-white hover:bg-brand-700`;
export const ghostButton = `${buttonClass} border border-slate-300 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800`;
export const inputClass =
  "w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-100 focus:outline-none disabled:bg-slate-100 disabled:text-slate-500 dark:border-slate-600 dark:bg-slate-900 dark:disabled:bg-slate-800";

/** Calls an admin endpoint and shows the spec's toast: the server's message, or the fallback. */
export async function callAdmin(
  method: string,
  path: string,
  payload: unknown,
  successMessage: string,
  fallbackError: string,
): Promise<boolean> {
  try {
    const { status, body } = await postJson(path, payload, method);
    if (status >= 200 && status < 300) {
      toast.success("Sucesso", { description: successMessage });
      return true;
    }
    toast.error("Erro", { description: body.error || fallbackError });
  } catch {
    toast.error("Erro", { description: fallbackError || UNEXPECTED_ERROR });
  }
  return false;
}

export function RoleBadge({ role }: { role: string }) {
  const system = ["admin", "lider", "visualizador", "security"].includes(role);
  return (
    <span
      className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${system ? "bg-brand-100 text-brand-700" : "bg-emerald-100 text-emerald-800"}`}
    >
      {roleLabel(role)}
    </span>
  );
}

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
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[95vw] max-w-2xl -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-xl dark:bg-slate-900">
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

export function ConfirmDialog({
  trigger,
  title,
  message,
  confirmLabel,
  onConfirm,
}: {
  trigger: ReactNode;
  title: string;
  message: string;
  confirmLabel: string;
  onConfirm: () => void;
}) {
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[95vw] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl dark:bg-slate-900">
          <AlertDialog.Title className="text-lg font-bold">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-slate-600 dark:text-slate-300">{message}</AlertDialog.Description>
          <div className="mt-6 flex justify-end gap-2">
            <AlertDialog.Cancel className={ghostButton}>Cancelar</AlertDialog.Cancel>
            <AlertDialog.Action className={`${buttonClass} bg-red-600 text-white hover:bg-red-700`} onClick={onConfirm}>
              {confirmLabel}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

export function CheckItem({
  id,
  checked,
  disabled,
  onChange,
  title,
  subtitle,
}: {
  id: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
  title: string;
  subtitle?: string;
}) {
  return (
    <div className="flex items-start gap-2 rounded-md p-2 hover:bg-slate-50 dark:hover:bg-slate-800">
      <Checkbox.Root
        id={id}
        checked={checked}
        disabled={disabled}
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
