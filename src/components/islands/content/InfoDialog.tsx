import { lazy, Suspense, type ReactNode } from "react";
import { useDeferredDialog } from "../ui/deferred-dialog";

const loadContent = () => import("./InfoDialogContent");
const InfoDialogContent = lazy(loadContent);

/** A button that opens an accessible dialog (Radix, loaded on intent) with `children`. */
export function InfoDialog({
  triggerClassName,
  triggerContent,
  title,
  children,
}: {
  triggerClassName: string;
  triggerContent: ReactNode;
  title: string;
  children: ReactNode;
}) {
  const dialog = useDeferredDialog(loadContent);
  return (
    <>
      <button type="button" className={triggerClassName} {...dialog.triggerProps}>
        {triggerContent}
      </button>
      {dialog.mounted && (
        <Suspense fallback={null}>
          <InfoDialogContent open={dialog.open} onOpenChange={dialog.setOpen} onCloseAutoFocus={dialog.onCloseAutoFocus} title={title}>
            {children}
          </InfoDialogContent>
        </Suspense>
      )}
    </>
  );
}
