// Preloaded (`node --import`) into a command-line script a test starts: moves that process's clock by
// B1_TEST_CLOCK_OFFSET_MS (Date.now, `new Date()` and `Date()`), so several runs fall in the week the test
// chose. Only the tests load it; the scripts themselves have no setting for their clock (see week-clock.ts).
const offset = Number(process.env.B1_TEST_CLOCK_OFFSET_MS ?? 0);
if (Number.isFinite(offset) && offset !== 0) {
  const RealDate = Date;
  const now = () => RealDate.now() + offset;
  globalThis.Date = new Proxy(RealDate, {
    construct: (target, args, newTarget) => Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget),
    apply: () => new RealDate(now()).toString(),
    get: (target, key, receiver) => (key === "now" ? now : Reflect.get(target, key, receiver)),
  });
}
