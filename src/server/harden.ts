/**
 * Imported first by the gate and by each worker thread's entry: the `__proto__` accessor of
 * `Object.prototype` throws, as Node's `--disable-proto=throw` makes it (every documented start
 * command passes that flag; this covers a command that forgot it). A key named `__proto__` in data
 * then can neither read nor replace a prototype: it fails loudly instead of polluting silently.
 * Object literals written `{ __proto__: null }` are syntax, not the accessor, and keep working.
 */
import { readSetting } from "../lib/settings.ts";
export const PROTO_FLAG = "--disable-proto=throw";

function protoAccessThrows(): boolean {
  try {
    Reflect.get({}, "__proto__");
    return false;
  } catch {
    return true;
  }
}

if (!protoAccessThrows()) {
  const refuse = () => {
    throw Object.assign(new Error("Acesso a Object.prototype.__proto__ desativado (--disable-proto=throw)"), { code: "ERR_PROTO_ACCESS" });
  };
  Object.defineProperty(Object.prototype, "__proto__", { get: refuse, set: refuse, configurable: true, enumerable: false });
}

/** True when this process was started with the flag (the health log says which). */
export const startedWithProtoFlag = process.execArgv.includes(PROTO_FLAG) || (readSetting("NODE_OPTIONS") ?? "").includes(PROTO_FLAG);
