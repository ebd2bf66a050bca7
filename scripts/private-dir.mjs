/**
 * Folders for build caches that only the current user can have written (issue 62 item 4). A cache
 * whose content is later run (the previous release's dist/gate/main.mjs, a bundled script) must not
 * sit in a folder another local user could create first or write into: `privateDir` creates the
 * folder with mode 0700 or, when it exists, accepts it only if it is a real folder (not a link),
 * owned by this user and writable by nobody else; anything else is refused with a Portuguese message
 * and nothing inside it is used. Plain JS so scripts/run-script.mjs can import it without tsx.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export class UnsafeCacheDirError extends Error {}

/** The current user's id (null where there is none: Windows). */
function currentUid() {
  return typeof process.getuid === "function" ? process.getuid() : null;
}

/**
 * `dir`, created 0700 when missing (its missing parents too), checked when present. `options.uid`
 * is the owner required (default: the current user; tests pass another to see the refusal).
 * Throws UnsafeCacheDirError when the folder is a link, not a folder, owned by someone else or
 * writable by group or others, or when its parent is writable by others without the sticky bit
 * (anyone could swap the folder for theirs).
 */
export function privateDir(dir, options = {}) {
  const uid = options.uid ?? currentUid();
  const absolute = path.resolve(dir);
  fs.mkdirSync(path.dirname(absolute), { recursive: true, mode: 0o700 });
  try {
    fs.mkdirSync(absolute, { mode: 0o700 });
  } catch (error) {
    if (error.code !== "EEXIST") throw error;
  }
  const stat = fs.lstatSync(absolute);
  const refuse = (why) => {
    throw new UnsafeCacheDirError(
      `Pasta de cache recusada: ${absolute} ${why}. Nada dela foi usado; apague-a (ou corrija dono e permissões: chmod 700, do seu usuário) e rode de novo.`,
    );
  };
  if (stat.isSymbolicLink()) refuse("é um link simbólico");
  if (!stat.isDirectory()) refuse("não é uma pasta");
  if (uid !== null && stat.uid !== uid) refuse(`pertence a outro usuário (uid ${stat.uid}, esperado ${uid})`);
  if ((stat.mode & 0o022) !== 0) refuse(`pode ser escrita por outros usuários (modo ${(stat.mode & 0o777).toString(8)})`);
  const parent = fs.statSync(path.dirname(absolute));
  if ((parent.mode & 0o002) !== 0 && (parent.mode & 0o1000) === 0)
    refuse("está numa pasta que qualquer usuário pode alterar (sem sticky bit)");
  // Ours and written by nobody else: readable by others is only tightened.
  if ((stat.mode & 0o077) !== 0) fs.chmodSync(absolute, 0o700);
  return absolute;
}

/**
 * The current user's cache folder for this project: $XDG_CACHE_HOME/b1-method-hub, else
 * ~/.cache/b1-method-hub; where the home folder cannot be written (a CI container with HOME=/),
 * b1-method-hub-<uid> in the temporary folder — a name anyone can create first, so there the
 * checks of privateDir are what keep it safe (someone else's folder is refused, never used).
 * `sub` names a folder inside it, also checked.
 */
export function userCacheDir(sub) {
  const xdg = process.env.XDG_CACHE_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), ".cache");
  let root;
  try {
    root = privateDir(path.join(base, "b1-method-hub"));
  } catch (error) {
    if (!["EACCES", "EROFS", "EPERM", "ENOENT", "ENOTDIR", "EEXIST"].includes(error.code)) throw error;
    root = privateDir(path.join(os.tmpdir(), `b1-method-hub-${currentUid() ?? "user"}`));
  }
  return sub ? privateDir(path.join(root, sub)) : root;
}
