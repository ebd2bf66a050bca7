/**
 * Components editors may use in MDX without importing them (see docs/editar-conteudo.md).
 * `npm run content:check` and the build refuse any other capitalised tag.
 */
export const MDX_COMPONENT_NAMES = ["Aviso", "Passos", "Cartoes", "Cartao", "Abas", "Aba", "Figura", "Acao"] as const;

export type MdxComponentName = (typeof MDX_COMPONENT_NAMES)[number];
