import { useCallback, useEffect, useId, useState } from "react";
import { sendJson, UNEXPECTED_ERROR } from "../../../lib/api-client";
import { toast } from "../ui/toast";
import { callAdmin, ConfirmDialog } from "./ui";
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

interface TestAnswer {
  ok: boolean;
  status: number | null;
  excerpt: string;
}

/** Sends a configuration action; the server's answer body (null on a refusal, shown as a toast). */
async function configure(payload: Record<string, unknown>, success: string): Promise<Record<string, unknown> | null> {
  try {
    const { status, body } = await sendJson(ENDPOINT, payload, "POST");
    if (status >= 200 && status < 300) {
      toast.success("Sucesso", { description: String(body.message ?? success) });
      return body;
    }
    toast.error("Erro", { description: String(body.error || "Não foi possível alterar a integração") });
  } catch {
    toast.error("Erro", { description: UNEXPECTED_ERROR });
  }
  return null;
}

/** The signing secret, shown once after it is generated. */
function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <div
      role="status"
      data-secret-once
      className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950"
    >
      <p className="mb-2 font-semibold text-amber-950 dark:text-amber-50">Guarde este segredo agora: ele não será mostrado de novo.</p>
      <code className="block rounded bg-white p-2 font-mono text-xs break-all text-slate-900 dark:bg-slate-900 dark:text-slate-100">
        {secret}
      </code>
      <p className="mt-2 text-amber-950 dark:text-amber-50">
        O receptor confere o cabeçalho webhook-signature com ele (Standard Webhooks).
      </p>
      <button type="button" className={`${ghostButton} mt-2`} onClick={onDone}>
        Já guardei
      </button>
    </div>
  );
}

function UrlForm({
  name,
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  name: Integration["name"];
  initial: string;
  submitLabel: string;
  onSubmit: (url: string) => Promise<void>;
  onCancel?: () => void;
}) {
  const [url, setUrl] = useState(initial);
  const [busy, setBusy] = useState(false);
  const id = useId();
  return (
    <form
      className="mt-4 flex flex-wrap items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        setBusy(true);
        void onSubmit(url).finally(() => setBusy(false));
      }}
    >
      <div className="min-w-48 flex-1">
        <label htmlFor={id} className="mb-1 block text-sm font-medium">
          {name === "webhook" ? "Endereço do webhook (https://…)" : "Endereço do coletor syslog (tls://servidor:porta)"}
        </label>
        <input id={id} className={inputClass} value={url} onChange={(event) => setUrl(event.target.value)} maxLength={2000} required />
      </div>
      <button type="submit" className={primaryButton} disabled={busy}>
        {submitLabel}
      </button>
      {onCancel && (
        <button type="button" className={ghostButton} onClick={onCancel}>
          Cancelar
        </button>
      )}
    </form>
  );
}

function Destination({ item, onChanged }: { item: Integration; onChanged: () => void }) {
  const [from, setFrom] = useState("");
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [test, setTest] = useState<TestAnswer | null>(null);
  const fromId = useId();
  const state = stateOf(item);
  const locked = item.lockedBy !== null;
  const sendTest = async () => {
    setBusy(true);
    setTest(null);
    const body = await configure({ destination: item.name, action: "test" }, "Evento de teste enviado");
    setBusy(false);
    if (body?.test) setTest(body.test as TestAnswer);
    onChanged();
  };
  const rotate = async () => {
    const body = await configure({ destination: item.name, action: "rotate", graceHours: 24 }, "Novo segredo gerado");
    if (typeof body?.secret === "string") setSecret(body.secret);
    onChanged();
  };
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
      <p data-target className="mb-3 text-sm break-all text-slate-600 dark:text-slate-300">
        {item.target}
      </p>
      {locked && (
        <p data-locked className="mb-3 rounded-md bg-slate-100 p-2 text-sm text-slate-700 dark:bg-slate-800 dark:text-slate-200">
          Somente leitura: definido pela variável {item.lockedBy} no servidor. Para mudar, altere o ambiente e reinicie.
        </p>
      )}
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
        {item.previousSecretUntil !== null && (
          <>
            <dt className="text-slate-600 dark:text-slate-300">Segredo anterior</dt>
            <dd>ainda assina até {when(item.previousSecretUntil)}</dd>
          </>
        )}
      </dl>
      {secret && <SecretOnce secret={secret} onDone={() => setSecret(null)} />}
      {test && (
        <div
          role="status"
          data-test-answer
          className={`mt-4 rounded-lg border p-3 text-sm ${test.ok ? "border-emerald-300 bg-emerald-50 text-emerald-950 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-50" : "border-red-300 bg-red-50 text-red-950 dark:border-red-700 dark:bg-red-950 dark:text-red-50"}`}
        >
          <p className="font-semibold">
            {test.status === null ? "Resposta do receptor" : `Resposta do receptor: HTTP ${test.status}`}
            {test.ok ? " (aceito)" : " (não aceito)"}
          </p>
          {test.excerpt && <p className="mt-1 font-mono text-xs break-all">{test.excerpt}</p>}
        </div>
      )}
      {editing && (
        <UrlForm
          name={item.name}
          initial=""
          submitLabel="Salvar endereço"
          onCancel={() => setEditing(false)}
          onSubmit={async (url) => {
            if (await configure({ destination: item.name, action: "update", url }, "Destino alterado")) setEditing(false);
            onChanged();
          }}
        />
      )}
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
        <button type="button" className={ghostButton} disabled={busy} onClick={() => void sendTest()}>
          Enviar evento de teste
        </button>
        {!locked && (
          <>
            <button type="button" className={ghostButton} disabled={busy || editing} onClick={() => setEditing(true)}>
              Editar endereço
            </button>
            {item.name === "webhook" && (
              <ConfirmDialog
                triggerLabel="Gerar novo segredo"
                triggerClassName={ghostButton}
                triggerContent="Gerar novo segredo"
                title="Gerar novo segredo de assinatura?"
                message="O segredo atual continua assinando por 24 horas (as duas assinaturas vão no cabeçalho), para o receptor trocar sem perder eventos."
                confirmLabel="Gerar"
                onConfirm={() => void rotate()}
              />
            )}
            <ConfirmDialog
              triggerLabel={`Remover ${LABELS[item.name]}`}
              triggerClassName={ghostButton}
              triggerContent="Remover"
              title={`Remover o destino ${LABELS[item.name]}?`}
              message="A entrega para este endereço para em todas as instâncias. Os registros de auditoria continuam no portal."
              confirmLabel="Remover"
              onConfirm={() => void configure({ destination: item.name, action: "remove" }, "Destino removido").then(onChanged)}
            />
          </>
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

/** "Adicionar destino": the kinds not set yet, an address, and the secret shown once. */
function AddDestination({ free, onChanged }: { free: Integration["name"][]; onChanged: () => void }) {
  const [name, setName] = useState<Integration["name"]>(free[0]!);
  const [secret, setSecret] = useState<string | null>(null);
  const kindId = useId();
  const kind = free.includes(name) ? name : free[0];
  return (
    <section
      aria-labelledby={`${kindId}-title`}
      data-add-destination
      className="rounded-xl border border-slate-200 p-5 dark:border-slate-700"
    >
      <h2 id={`${kindId}-title`} className="mb-2 font-semibold">
        Adicionar destino
      </h2>
      {secret && <SecretOnce secret={secret} onDone={() => setSecret(null)} />}
      {kind && (
        <>
          <label htmlFor={kindId} className="mb-1 block text-sm font-medium">
            Tipo
          </label>
          <select id={kindId} className={inputClass} value={kind} onChange={(event) => setName(event.target.value as Integration["name"])}>
            {free.map((option) => (
              <option key={option} value={option}>
                {LABELS[option]}
              </option>
            ))}
          </select>
          <UrlForm
            key={kind}
            name={kind}
            initial=""
            submitLabel="Adicionar"
            onSubmit={async (url) => {
              const body = await configure({ destination: kind, action: "create", url }, "Destino adicionado");
              if (typeof body?.secret === "string") setSecret(body.secret);
              onChanged();
            }}
          />
        </>
      )}
    </section>
  );
}

/** The Integrações tab: each audit streaming destination's state and actions, and "Adicionar destino". */
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
  const free = (["webhook", "syslog"] as const).filter((name) => !items.some((item) => item.name === name));
  return (
    <div className="grid gap-4 md:grid-cols-2">
      {items.length === 0 && (
        <p className="rounded-xl border border-slate-200 p-5 text-sm text-slate-600 md:col-span-2 dark:border-slate-700 dark:text-slate-300">
          Nenhuma integração configurada. Para enviar a auditoria ao SIEM da empresa, adicione um destino abaixo (ou defina
          AUDIT_WEBHOOK_URL ou AUDIT_SYSLOG_URL no servidor; veja docs/implantacao.md).
        </p>
      )}
      {items.map((item) => (
        <Destination key={item.name} item={item} onChanged={() => void load()} />
      ))}
      {free.length > 0 && <AddDestination free={[...free]} onChanged={() => void load()} />}
    </div>
  );
}
