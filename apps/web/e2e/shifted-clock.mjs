/**
 * Loaded with `node --import` into a shop an end-to-end spec starts (shop-process.ts): moves the
 * process's wall clock by E2E_CLOCK_OFFSET_MS, so a sale made in it is dated in another month (the shop
 * has no clock setting of its own). `Date.now()` and `new Date()` move; dates built from a value do not.
 */
const offset = Number(process.env.E2E_CLOCK_OFFSET_MS ?? 0);
const RealDate = Date;
const realNow = RealDate.now.bind(RealDate);

RealDate.now = () => realNow() + offset;
globalThis.Date = new Proxy(RealDate, {
  construct(target, args, newTarget) {
    return Reflect.construct(target, args.length ? args : [realNow() + offset], newTarget);
  },
  apply() {
    return new RealDate(realNow() + offset).toString();
  },
});
