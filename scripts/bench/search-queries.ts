/**
 * The search-quality query set (`npm run bench -- --search-quality`): queries written from the content
 * the way employees ask, in seven kinds, each with the page(s) that answer it. A hit is a result in the
 * top k whose page is one of `expected`. Written for the content as it is; add queries when pages
 * change, and never change an expectation to make a figure pass.
 *
 * Only pages a visualizador opens are expected (the set runs as one).
 */
export const QUERY_KINDS = ["exato", "pergunta", "sinonimo", "sem-acento", "flexao", "erro", "sigla"] as const;
export type QueryKind = (typeof QUERY_KINDS)[number];

export const KIND_LABELS: Record<QueryKind, string> = {
  exato: "termo exato",
  pergunta: "pergunta",
  sinonimo: "sinônimo",
  "sem-acento": "sem acento",
  flexao: "plural / verbo",
  erro: "erro de digitação",
  sigla: "sigla",
};

export interface QualityQuery {
  kind: QueryKind;
  query: string;
  expected: readonly string[];
}

const q = (kind: QueryKind, query: string, ...expected: string[]): QualityQuery => ({ kind, query, expected });

export const QUALITY_QUERIES: readonly QualityQuery[] = [
  q("exato", "lean canvas", "/templates"),
  q("exato", "matriz raci", "/5ps", "/glossario", "/templates"),
  q("exato", "sementezz", "/sementezz"),
  q("exato", "definition of done", "/glossario"),
  q("exato", "engenharia de prompt", "/ferramentas-ia"),
  q("exato", "go live", "/etapas-processo"),
  q("exato", "gateway de pagamentos", "/sobre-b1"),
  q("exato", "mapa de empatia", "/templates"),
  q("exato", "trilha interativa", "/trilha-interativa"),
  q("exato", "wireframe", "/glossario"),
  q("exato", "backoffice modular", "/sobre-b1"),
  q("exato", "sprint de 5 dias", "/ai-first-fast-track"),
  q("exato", "assistente de código", "/ferramentas-ia"),

  q("pergunta", "como inscrever meu time no sementezz", "/sementezz"),
  q("pergunta", "o que é a metodologia b1", "/home-metodologia", "/faq"),
  q("pergunta", "quanto tempo leva o discovery", "/faq"),
  q("pergunta", "quem define os papéis do projeto", "/faq", "/5ps"),
  q("pergunta", "onde encontro os templates", "/templates", "/faq"),
  q("pergunta", "quando usar o fast track com ia", "/faq", "/metodologia-ai-first", "/ai-first-fast-track"),
  q("pergunta", "como escolher as métricas do produto", "/faq", "/playbook-produtos"),
  q("pergunta", "posso usar ferramentas de ia nos projetos", "/faq", "/ferramentas-ia"),
  q("pergunta", "como falar com o time de metodologia", "/contato"),
  q("pergunta", "qual o horário de atendimento do time de metodologia", "/contato"),
  q("pergunta", "o que acontece em cada dia da sprint", "/ai-first-fast-track"),
  q("pergunta", "como sugerir um novo template", "/contato"),
  q("pergunta", "como baixar a trilha em pdf", "/trilha-interativa"),
  q("pergunta", "qual a diferença entre mvp e poc", "/glossario", "/etapas-processo"),
  q("pergunta", "o que é um produto digital", "/playbook-produtos"),
  q("pergunta", "quais ferramentas usar na ideação", "/etapas-processo", "/trilha-interativa"),

  q("sinonimo", "chatgpt", "/ferramentas-ia"),
  q("sinonimo", "ferramentas AI", "/ferramentas-ia"),
  q("sinonimo", "história da empresa", "/sobre-b1", "/contato"),
  q("sinonimo", "programa de intraempreendedorismo", "/sementezz"),
  q("sinonimo", "modelos de documento", "/templates"),
  q("sinonimo", "perguntas comuns", "/faq"),
  q("sinonimo", "dicionário de termos", "/glossario"),
  q("sinonimo", "plataforma de pagamento", "/sobre-b1", "/etapas-processo"),
  q("sinonimo", "gravar e resumir reuniões", "/ferramentas-ia"),
  q("sinonimo", "copilot", "/ferramentas-ia"),
  q("sinonimo", "equipe de metodologia", "/contato"),
  q("sinonimo", "medir sucesso do produto", "/playbook-produtos", "/faq"),
  q("sinonimo", "documentação do usuário", "/templates"),
  q("sinonimo", "prototipar com inteligência artificial", "/metodologia-ai-first", "/ferramentas-ia"),

  q("sem-acento", "glossario", "/glossario"),
  q("sem-acento", "priorizacao com dados", "/playbook-produtos"),
  q("sem-acento", "pre-execucao", "/etapas-processo"),
  q("sem-acento", "sustentacao", "/etapas-processo", "/glossario"),
  q("sem-acento", "validacao rapida", "/metodologia-ai-first"),
  q("sem-acento", "especificacao funcional", "/templates", "/playbook-produtos"),
  q("sem-acento", "inscricao de squads", "/sementezz"),
  q("sem-acento", "metricas de produto", "/playbook-produtos"),
  q("sem-acento", "transcricao de reunioes", "/ferramentas-ia"),
  q("sem-acento", "papeis e responsabilidades", "/5ps"),
  q("sem-acento", "prototipo navegavel", "/etapas-processo", "/ai-first-fast-track"),
  q("sem-acento", "analise de mercado e concorrencia", "/playbook-produtos"),
  q("sem-acento", "duvidas sobre contato", "/contato"),

  q("flexao", "validação de ideias com clientes", "/metodologia-ai-first", "/faq"),
  q("flexao", "priorizar backlog", "/playbook-produtos", "/templates", "/glossario"),
  q("flexao", "lançamento gradual", "/playbook-produtos"),
  q("flexao", "entrega incremental", "/playbook-produtos"),
  q("flexao", "prototipar telas", "/ferramentas-ia", "/metodologia-ai-first"),
  q("flexao", "monetizar o produto", "/playbook-produtos"),
  q("flexao", "documentar decisões de arquitetura", "/templates", "/etapas-processo"),
  q("flexao", "mentorias de projeto", "/contato", "/sementezz"),
  q("flexao", "transcrever reuniões", "/ferramentas-ia"),
  q("flexao", "automatizar fluxos", "/ferramentas-ia"),
  q("flexao", "história de usuário", "/playbook-produtos", "/ferramentas-ia"),
  q("flexao", "checkpoint quinzenal", "/sementezz"),
  q("flexao", "squad reconhecida", "/sementezz"),

  q("erro", "glosario", "/glossario"),
  q("erro", "whitelable", "/sobre-b1"),
  q("erro", "playbok de produtos", "/playbook-produtos"),
  q("erro", "semetezz", "/sementezz"),
  q("erro", "wirefame", "/glossario"),
  q("erro", "stakeholer", "/glossario", "/playbook-produtos"),
  q("erro", "discovey", "/etapas-processo", "/glossario"),
  q("erro", "retrospetiva", "/templates", "/5ps"),
  q("erro", "prototpo navegavel", "/etapas-processo", "/ai-first-fast-track"),
  q("erro", "matriz rasi", "/5ps", "/glossario", "/templates"),
  q("erro", "assitente de codigo", "/ferramentas-ia"),
  q("erro", "backlgo", "/glossario", "/templates", "/playbook-produtos"),

  q("sigla", "OKR", "/playbook-produtos"),
  q("sigla", "MVP", "/glossario", "/etapas-processo"),
  q("sigla", "KPI", "/glossario"),
  q("sigla", "NPS", "/glossario"),
  q("sigla", "responsabilidades do PO", "/5ps", "/playbook-produtos"),
  q("sigla", "DoD", "/glossario"),
  q("sigla", "time de UX", "/contato"),
  q("sigla", "o que é PoC", "/glossario"),
  q("sigla", "API", "/templates"),
  q("sigla", "ADR", "/templates"),
  q("sigla", "SLA", "/etapas-processo"),
  q("sigla", "RACI", "/5ps", "/glossario"),
  q("sigla", "AARRR", "/playbook-produtos"),
  q("sigla", "LLM", "/ferramentas-ia"),
];
