import { lazy, Suspense, type ReactNode } from "react";
import { sendJson, UNEXPECTED_ERROR } from "../../../lib/api-client";
import { toast } from "../ui/toast";
import { useDeferredDialog } from "../ui/deferred-dialog";

/** Calls an admin endpoint and shows the spec's toast: the server's message, or the fallback. */
export async function callAdmin(
  method: string,
  path: string,
  payload: unknown,
  successMessage: string,
  fallbackError: string,
): Promise<boolean> {
  try {
    const { status, body } = await sendJson(path, payload, method);
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

/** Messages per form field; `_` holds a refusal that concerns no single field. */
export type FieldErrors = Record<string, string>;

/**
 * Sends a dialog's form. Success: the spec's toast and `null`. A refusal tied to fields comes back
 * to be shown beside them; any other refusal is shown as a toast and under `_`.
 */
export async function submitAdmin(
  method: string,
  path: string,
  payload: unknown,
  successMessage: string,
  fallbackError: string,
): Promise<FieldErrors | null> {
  try {
    const { status, body } = await sendJson(path, payload, method);
    if (status >= 200 && status < 300) {
      toast.success("Sucesso", { description: successMessage });
      return null;
    }
    if (body.fields && Object.keys(body.fields).some((key) => key !== "_")) return body.fields;
    toast.error("Erro", { description: body.error || fallbackError });
    return { _: body.error || fallbackError };
  } catch {
    toast.error("Erro", { description: fallbackError || UNEXPECTED_ERROR });
    return { _: fallbackError || UNEXPECTED_ERROR };
  }
}

const loadConfirm = () => import("./ConfirmAlert");
const ConfirmAlert = lazy(loadConfirm);

/** A trigger button that asks for confirmation (Radix AlertDialog, loaded on intent) before `onConfirm`. */
export function ConfirmDialog({
  triggerLabel,
  triggerClassName,
  triggerContent,
  title,
  message,
  confirmLabel,
  onConfirm,
}: {
  triggerLabel: string;
  triggerClassName: string;
  triggerContent: ReactNode;
  title: string;
  message: string;
  confirmLabel: string;
  onConfirm: () => void;
}) {
  const dialog = useDeferredDialog(loadConfirm);
  return (
    <>
      <button type="button" className={triggerClassName} aria-label={triggerLabel} {...dialog.triggerProps}>
        {triggerContent}
      </button>
      {dialog.mounted && (
        <Suspense fallback={null}>
          <ConfirmAlert
            open={dialog.open}
            onOpenChange={dialog.setOpen}
            onCloseAutoFocus={dialog.onCloseAutoFocus}
            title={title}
            message={message}
            confirmLabel={confirmLabel}
            onConfirm={onConfirm}
          />
        </Suspense>
      )}
    </>
  );
}
