/**
 * `npm run dev` and `npm run build`: runs Astro and writes its status lines in Portuguese (the portal's
 * editors read this terminal). Only whole lines Astro and Vite print in a known shape are reworded; any
 * other line (errors, warnings, the portal's own Portuguese lines) passes unchanged, colours and all.
 * A reworded line loses its colours. The exit code and the signals (Ctrl+C) are Astro's.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

// eslint-disable-next-line no-control-regex -- ANSI colour codes are what is taken off
const ANSI = /\x1b\[[0-9;]*m/g;
/** Seconds as Astro prints them ("4.80s", "512 ms") in Portuguese ("4,80 s", "512 ms"). */
const time = (value, unit) => `${value.replace(".", ",")} ${unit === "ms" ? "ms" : "s"}`;

/** [English line (after the time stamp and the [tag]), Portuguese], matched on the whole text. */
const LINES = [
  [/^Collecting build info\.\.\.$/, () => "Reunindo as informações do build..."],
  [/^(✓ )?Completed in ([\d.]+)\s?(ms|s)\.?$/, (_, mark = "", value, unit) => `${mark}Concluído em ${time(value, unit)}.`],
  [/^Building server entrypoints\.\.\.$/, () => "Montando as entradas do servidor..."],
  [/^Building static entrypoints\.\.\.$/, () => "Montando as entradas estáticas..."],
  [/^✓ built in ([\d.]+)\s?(ms|s)$/, (_, value, unit) => `✓ montado em ${time(value, unit)}`],
  [/^Rearranging server assets\.\.\.$/, () => "Reorganizando os arquivos do servidor..."],
  [/^prerendering static routes$/, () => "pré-renderizando as páginas estáticas"],
  [/^generating optimized images$/, () => "gerando as imagens otimizadas"],
  [/^Server built in ([\d.]+)\s?(ms|s)$/, (_, value, unit) => `Servidor montado em ${time(value, unit)}`],
  [/^Complete!$/, () => "Pronto!"],
  [/^output: (.*)$/, (_, rest) => `saída: ${rest}`],
  [/^mode: (.*)$/, (_, rest) => `modo: ${rest}`],
  [/^directory: (.*)$/, (_, rest) => `pasta: ${rest}`],
  [/^adapter: (.*)$/, (_, rest) => `adaptador: ${rest}`],
  [/^Generated ([\d.]+)\s?(ms|s)$/, (_, value, unit) => `Tipos gerados em ${time(value, unit)}`],
  [/^Syncing content$/, () => "Sincronizando o conteúdo"],
  [/^Synced content$/, () => "Conteúdo sincronizado"],
  [/^astro\s+(v[\d.]+\S*) ready in ([\d.]+) ?(ms|s)$/, (_, version, value, unit) => `astro ${version} pronto em ${time(value, unit)}`],
  [/^┃ Network\s+(.*)$/, (_, rest) => `┃ Rede    ${rest.replace("use --host to expose", "use --host para expor")}`],
  [/^watching for file changes\.\.\.$/, () => "observando mudanças nos arquivos..."],
  [/^page reload (.*)$/, (_, file) => `página recarregada: ${file}`],
  [/^hmr update (.*)$/, (_, file) => `atualização ao vivo: ${file}`],
  [/^Server shutting down\.?$/i, () => "Servidor encerrando."],
  [/^connected\.$/, () => "conectado."],
  [/^Re-optimizing dependencies because (?:vite )?config has changed$/, () => "Reotimizando as dependências: a configuração mudou"],
  [/^\[optimizer\] bundling dependencies\.\.\.$/, () => "[optimizer] empacotando as dependências..."],
  [/^update\s+▶ New version of Astro available: (\S+)$/, (_, version) => `atualização ▶ Nova versão do Astro disponível: ${version}`],
  [/^Run (npx @astrojs\/upgrade) to update$/, (_, command) => `Rode ${command} para atualizar`],
];

/** `[hh:mm:ss] [tag] ` in front of Astro's message, kept as it is. */
const PREFIX = /^((?:\d{2}:\d{2}:\d{2} )?(?:\[[\w:-]+\] )?)(.*)$/s;

/** One output line in Portuguese when Astro's message is a known one; otherwise the line unchanged. */
export function translateLine(line) {
  const plain = line.replace(ANSI, "");
  const [, prefix = "", message = ""] = PREFIX.exec(plain) ?? [];
  const trimmed = message.trim();
  for (const [pattern, reword] of LINES) {
    const match = pattern.exec(trimmed);
    if (match) return `${prefix}${message.slice(0, message.indexOf(trimmed))}${reword(...match)}`;
  }
  return line;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const astro = fileURLToPath(new URL("../node_modules/astro/bin/astro.mjs", import.meta.url));
  // Astro prints colours only to a terminal: told to keep them when ours is one.
  const env = { ...process.env, ...(process.stdout.isTTY ? { FORCE_COLOR: "1" } : {}) };
  const child = spawn(process.execPath, [astro, ...process.argv.slice(2)], { stdio: ["inherit", "pipe", "pipe"], env });
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    createInterface({ input: from, crlfDelay: Infinity }).on("line", (line) => to.write(`${translateLine(line)}\n`));
  }
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
