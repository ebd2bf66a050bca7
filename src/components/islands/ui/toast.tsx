import { useEffect, useState } from "react";
import type { ExternalToast } from "sonner";

/**
 * Sonner, loaded on the first toast instead of with the page (it is ~9 KB gzip and most visits never
 * show one). Islands call `toast.success/error` as with sonner and render `<Toasts />` once.
 */
type Sonner = typeof import("sonner");
type Show = (api: Sonner["toast"]) => void;

const pending: Show[] = [];
let requestToaster: (() => void) | null = null;
let deliver: ((show: Show) => void) | null = null;

function enqueue(show: Show) {
  if (deliver) return deliver(show);
  pending.push(show);
  requestToaster?.();
}

export const toast = {
  success: (title: string, options?: ExternalToast) => enqueue((api) => api.success(title, options)),
  error: (title: string, options?: ExternalToast) => enqueue((api) => api.error(title, options)),
};

export function Toasts() {
  const [sonner, setSonner] = useState<Sonner | null>(null);

  useEffect(() => {
    const load = () => void import("sonner").then(setSonner);
    requestToaster = load;
    if (pending.length) load();
    return () => {
      requestToaster = null;
    };
  }, []);

  // Runs after the Toaster (a child) has subscribed to sonner's store, so queued toasts are not lost.
  useEffect(() => {
    if (!sonner) return;
    deliver = (show) => show(sonner.toast);
    pending.splice(0).forEach(deliver);
    return () => {
      deliver = null;
    };
  }, [sonner]);

  if (!sonner) return null;
  // At the bottom: at the top they covered the sticky header's controls and its open menus.
  return <sonner.Toaster richColors closeButton duration={4000} visibleToasts={3} position="bottom-right" />;
}
