import Aba from "./Aba.astro";
import Abas from "./Abas.astro";
import Acao from "./Acao.astro";
import Aviso from "./Aviso.astro";
import Cartao from "./Cartao.astro";
import Cartoes from "./Cartoes.astro";
import Figura from "./Figura.astro";
import Passos from "./Passos.astro";
import type { MdxComponentName } from "./names";

/** What MDX bodies may use without importing (names checked by content:check and the build). */
export const mdxComponents: Record<MdxComponentName, unknown> = { Aviso, Passos, Cartoes, Cartao, Abas, Aba, Figura, Acao };
