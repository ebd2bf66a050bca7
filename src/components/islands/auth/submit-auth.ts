import { sendJson, UNEXPECTED_ERROR, type ApiResult } from "../../../lib/api-client";
import { toast } from "../ui/toast";

type Body<T> = ApiResult<T>["body"];

export function showError(message?: string) {
  toast.error("Erro", { description: message || UNEXPECTED_ERROR });
}

export interface AuthSubmit<T> {
  /** The status of success (200, or 201 for sign-up). */
  success: number;
  onSuccess: (body: Body<T>) => unknown;
  /** Answers with a known `code` that lead somewhere else (e.g. /link-expired). */
  onCode?: Partial<Record<string, (body: Body<T>) => unknown>>;
  /** Any other refusal; by default the 'Erro' toast with the server's message. */
  onFailure?: (status: number, body: Body<T>) => void;
  /** A network failure or a thrown exception; by default the 'Erro' toast. */
  onThrow?: (error: unknown) => void;
}

/** One submit for every /auth form: post, then branch on success, a known code, or the error toast. */
export async function submitAuth<T = Record<string, unknown>>(path: string, payload: unknown, handlers: AuthSubmit<T>): Promise<unknown> {
  try {
    const { status, body } = await sendJson<T>(path, payload);
    if (status === handlers.success) return await handlers.onSuccess(body);
    const byCode = body.code ? handlers.onCode?.[body.code] : undefined;
    if (byCode) return byCode(body);
    if (handlers.onFailure) handlers.onFailure(status, body);
    else showError(body.error);
  } catch (error) {
    if (handlers.onThrow) handlers.onThrow(error);
    else showError(error instanceof Error ? error.message : undefined);
  }
}

/** Leaves the page; the form stays busy until the browser navigates. */
export function navigate(url: string): Promise<never> {
  window.location.assign(url);
  return new Promise(() => {});
}
