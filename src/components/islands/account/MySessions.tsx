import { useCallback, useEffect, useState } from "react";
import { sendJson, UNEXPECTED_ERROR } from "../../../lib/api-client";
import { formatDateTime } from "../../../lib/admin/labels";
import type { SessionView } from "../../../lib/auth/session-view";

type SessionRow = SessionView;

const buttonClass =
  "rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-100 disabled:opacity-60 dark:border-slate-600 dark:hover:bg-slate-800";

/** 'Minhas sessões': where the person is signed in, and a way to end the sessions they do not recognise. */
export default function MySessions() {
  const [rows, setRows] = useState<SessionRow[] | null>(null);
  const [timeZone, setTimeZone] = useState("America/Sao_Paulo");
  const [message, setMessage] = useState<string>();
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      const response = await fetch("/api/conta/sessoes", { headers: { Accept: "application/json" } });
      const body = (await response.json()) as { sessions?: SessionRow[]; timeZone?: string; error?: string };
      if (!body.sessions) return setMessage(body.error ?? UNEXPECTED_ERROR);
      setRows(body.sessions);
      if (body.timeZone) setTimeZone(body.timeZone);
    } catch {
      setMessage(UNEXPECTED_ERROR);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  async function end(path: string) {
    setBusy(true);
    const { body } = await sendJson<{ message?: string }>(path, {}, "DELETE").catch(() => ({
      body: { error: UNEXPECTED_ERROR } as { message?: string; error?: string },
    }));
    setMessage(body.message ?? body.error ?? UNEXPECTED_ERROR);
    await load();
    setBusy(false);
  }

  if (!rows) return <p role="status">{message ?? "Carregando…"}</p>;
  const others = rows.filter((row) => !row.current).length;
  return (
    <div className="space-y-4">
      <p role="status" aria-live="polite" className="min-h-6 text-sm">
        {message}
      </p>
      <ul className="space-y-3" aria-label="Sessões ativas">
        {rows.map((row) => (
          <li
            key={row.handle}
            className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 p-4 dark:border-slate-700"
          >
            <div>
              <p className="font-semibold">
                {row.browser} em {row.system}
                {row.current && (
                  <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800">Esta sessão</span>
                )}
              </p>
              <p className="text-sm text-slate-600 dark:text-slate-300">
                IP {row.ipAddress ?? "desconhecido"} · entrou em {formatDateTime(row.signedInAt, timeZone)} · último uso{" "}
                {formatDateTime(row.lastUsedAt, timeZone)}
              </p>
            </div>
            {!row.current && (
              <button type="button" className={buttonClass} disabled={busy} onClick={() => end(`/api/conta/sessoes/${row.handle}`)}>
                Encerrar sessão
              </button>
            )}
          </li>
        ))}
      </ul>
      {others > 0 && (
        <button type="button" className={buttonClass} disabled={busy} onClick={() => end("/api/conta/sessoes")}>
          Encerrar todas as outras sessões
        </button>
      )}
    </div>
  );
}
