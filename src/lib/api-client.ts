/** Browser-side JSON calls to the portal's endpoints (same origin, cookies included). */
export interface ApiResult<T = Record<string, unknown>> {
  status: number;
  body: T & { error?: string; code?: string; fields?: Record<string, string> };
}

/** Sends `payload` as JSON with `method` (POST, PUT, DELETE…) and reads the JSON answer. */
export async function sendJson<T = Record<string, unknown>>(path: string, payload: unknown, method = "POST"): Promise<ApiResult<T>> {
  const response = await fetch(path, {
    method,
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(payload),
    credentials: "same-origin",
  });
  let body = {} as ApiResult<T>["body"];
  try {
    body = await response.json();
  } catch {
    // Non-JSON answers (e.g. a proxy error page) keep an empty body.
  }
  return { status: response.status, body };
}

export const UNEXPECTED_ERROR = "Ocorreu um erro inesperado";
