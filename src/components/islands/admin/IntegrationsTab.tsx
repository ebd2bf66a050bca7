import { useCallback, useEffect, useId, useState } from "react";
import { callAdmin } from "./ui";
import { ghostButton, inputClass, primaryButton } from "./styles";
import type { IntegrationView as Integration } from "../../../lib/admin/types";

const LABELS = { webhook: "Webhook assinado", syslog: "Syslog (RFC 5424)" } as const;
const ENDPOINT = "/api/admin/integracoes";

function when(ms: number | null): string {
  return ms === null ? "—" : new Date(ms).toLocaleString("pt-BR");
}

function lagText(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

function stateOf(item: Integration): { text: string; tone: string } {
  if (item.stoppedReason) return { text: "Parado", tone: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200" };
  if (item.paused) return { text: "Pausado", tone: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100" };
  if (item.lagSeconds > 600) return { text: "Atrasado", tone: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100" };
  return { text: "Enviando", tone: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100" };
}

function Destination({ item, onChanged }: { item: Integration; onChanged: () => void }) {
  const [from, setFrom] = useState("");
  const [busy, setBusy] = useState(false);
  const fromId = useId();
  const state = stateOf(item);
  const act = async (action: "pause" | "resume" | "resend", success: string) => {
    setBusy(true);
    const ok = await callAdmin(
      "POST",
      ENDPOINT,
      { destination: item.name, action, ...(action === "resend" ? { from } : {}) },
      success,
      "Não foi possível alterar a integração",
    );
    setBusy(false);
    if (ok && action === "resend") setFrom("");
    onChanged();
  };
  return (
    <section
      aria-labelledby={`${fromId}-title`}
      data-destination={item.name}
      className="rounded-xl border border-slate-200 p-5 dark:border-slate-700"
    >
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${fromId}-title`} className="font-semibold">
          {LABELS[item.name]}
        </h2>
        <span data-state className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${state.tone}`}>
          {state.text}
        </span>
      </div>
      <p className="mb-3 text-sm break-all text-slate-600 dark:text-slate-300">{item.target}</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600 dark:text-slate-300">Entregue até</dt>
        <dd data-delivered>
          registro {item.deliveredId} de {item.headId}
        </dd>
        <dt className="text-slate-600 dark:text-slate-300">Atraso</dt>
        <dd data-lag>
          {item.lagEvents} {item.lagEvents === 1 ? "evento" : "eventos"}, {lagText(item.lagSeconds)}
        </dd>
        <dt className="text-slate-600 dark:text-slate-300">Última entrega</dt>
        <dd>{when(item.deliveredAt)}</dd>
        <dt className="text-slate-600 dark:text-slate-300">Último erro</dt>
        <dd data-last-error>{item.lastError ? `${item.lastError} (${when(item.lastErrorAt)})` : "nenhum"}</dd>
        {item.stoppedReason && (
          <>
            <dt className="text-slate-600 dark:text-slate-300">Motivo da parada</dt>
            <dd>{item.stoppedReason}</dd>
          </>
        )}
      </dl>
      <div className="mt-4 flex flex-wrap gap-2">
        {item.paused || item.stoppedReason ? (
          <button type="button" className={primaryButton} disabled={busy} onClick={() => act("resume", "Envio retomado")}>
            Retomar
          </button>
        ) : (
          <button type="button" className={ghostButton} disabled={busy} onClick={() => act("pause", "Envio pausado")}>
            Pausar
          </button>
        )}
      </div>
      <form
        className="mt-4 flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          void act("resend", "Reenvio pedido");
        }}
      >
        <div className="min-w-48 flex-1">
          <label htmlFor={fromId} className="mb-1 block text-sm font-medium">
            Reenviar a partir de… (nº do registro ou data AAAA-MM-DD)
          </label>
          <input
            id={fromId}
            className={inputClass}
            value={from}
            onChange={(event) => setFrom(event.target.value)}
            maxLength={40}
            required
          />
        </div>
        <button type="submit" className={ghostButton} disabled={busy}>
          Reenviar
        </button>
      </form>
    </section>
  );
}

/** The Integrações tab: each audit streaming destination's state and its pause, resume and resend buttons. */
export default function IntegrationsTab() {
  const [items, setItems] = useState<Integration[] | null>(null);
  const [failed, setFailed] = useState(false);
  const load = useCallback(async () => {
    try {
      const response = await fetch(ENDPOINT, { headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error(String(response.status));
      setItems(((await response.json()) as { destinations: Integration[] }).destinations);
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, []);
  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), 5000);
    return () => clearInterval(timer);
  }, [load]);

  if (failed && !items) return <p className="py-6 text-center text-sm text-red-700 dark:text-red-300">Erro ao carregar as integrações</p>;
  if (!items) return <p className="py-6 text-center text-sm text-slate-500">Carregando...</p>;
  if (items.length === 0)
    return (
      <p className="rounded-xl border border-slate-200 p-5 text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300">
        Nenhuma integração configurada. Para enviar a auditoria ao SIEM da empresa, defina AUDIT_WEBHOOK_URL ou AUDIT_SYSLOG_URL (veja
        docs/implantacao.md).
      </p>
    );
  return (
    <div className="grid gap-4 md:grid-cols-2">
      {items.map((item) => (
        <Destination key={item.name} item={item} onChanged={() => void load()} />
      ))}
    </div>
  );
}
