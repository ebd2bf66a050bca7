import { lazy, Suspense, type ReactNode } from "react";
import { postJson, UNEXPECTED_ERROR } from "../../../lib/api-client";
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
