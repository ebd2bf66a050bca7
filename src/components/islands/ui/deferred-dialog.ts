import { useRef, useState, type RefObject } from "react";

/**
 * State for a dialog whose code (Radix and its focus/scroll helpers, ~10 KB gzip) is loaded only when the
 * user shows intent: pointer over or focus on the trigger starts the download, a click opens it. The page's
 * first load stays within the JS budget (docs/decisions.md). `load` is the dialog module's dynamic import.
 */
export function useDeferredDialog(load: () => Promise<unknown>) {
  const [open, setOpen] = useState(false);
  const [mounted, setMounted] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const preload = () => void load();
  return {
    open,
    setOpen,
    /** True once opened: the dialog stays mounted afterwards so closing can animate and state survives. */
    mounted,
    triggerProps: {
      ref: triggerRef as RefObject<HTMLButtonElement>,
      "aria-haspopup": "dialog" as const,
      "aria-expanded": open,
      onPointerEnter: preload,
      onFocus: preload,
      onClick: () => {
        setMounted(true);
        setOpen(true);
      },
    },
    /** Radix returns focus to its own Trigger; ours is a plain button, so focus it on close. */
    onCloseAutoFocus: (event: Event) => {
      event.preventDefault();
      triggerRef.current?.focus();
    },
  };
}
