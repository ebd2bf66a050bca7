import { useEffect, useState } from "react";

interface Step {
  id: string;
  titulo: string;
  detalhe: string;
  documentacao: { texto: string; href: string | null };
}

/** The overview's 'Primeiros passos' card: what is still to configure; nothing once all is done. */
export function FirstSteps() {
  const [steps, setSteps] = useState<Step[]>([]);
  useEffect(() => {
    fetch("/api/admin/primeiros-passos", { headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? (response.json() as Promise<{ passos: Step[] }>) : { passos: [] }))
      .then(
        (data) => setSteps(data.passos),
        () => setSteps([]),
      );
  }, []);
  if (steps.length === 0) return null;
  return (
    <section
      aria-labelledby="primeiros-passos"
      className="rounded-xl border border-amber-300 bg-amber-50 p-5 md:col-span-2 dark:border-amber-700 dark:bg-amber-950"
    >
      <h2 id="primeiros-passos" className="mb-1 font-semibold">
        Primeiros passos
      </h2>
      <p className="mb-3 text-sm text-slate-700 dark:text-slate-200">
        Este portal ainda usa configurações de exemplo. Cada item some quando for resolvido.
      </p>
      <ul className="space-y-3">
        {steps.map((step) => (
          <li key={step.id} data-passo={step.id} className="text-sm">
            <strong className="block">{step.titulo}</strong>
            <span className="text-slate-700 dark:text-slate-200">{step.detalhe} </span>
            {step.documentacao.href ? (
              <a
                href={step.documentacao.href}
                className="font-semibold text-brand-700 underline underline-offset-4 dark:text-sky-300"
                rel="noopener noreferrer"
              >
                Documentação: {step.documentacao.texto}
              </a>
            ) : (
              <span className="text-slate-700 dark:text-slate-200">Documentação: {step.documentacao.texto}</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
