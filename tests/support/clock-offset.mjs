// Preloaded (`node --import`) into a command-line script a test starts: moves that process's clock by
// B1_TEST_CLOCK_OFFSET_MS (Date.now and `new Date()`), so several runs fall in the week the test chose.
// Only the tests load it; the scripts themselves have no setting for their clock (see week-clock.ts).
const offset = Number(process.env.B1_TEST_CLOCK_OFFSET_MS ?? 0);
if (Number.isFinite(offset) && offset !== 0) {
  const RealDate = Date;
  class OffsetDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(RealDate.now() + offset);
      else super(...args);
    }
    static now() {
      return RealDate.now() + offset;
    }
  }
  globalThis.Date = OffsetDate;
}
