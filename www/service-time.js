// A time on the service's clock as the page shows it. A virtual clock
// starts at the real time and then moves only with requests and Advance,
// so its times look like the wall clock's: each is marked "virtual".
import { clock } from "./dom.js";

/** "12:00:30.123", or "12:00:30.123 (virtual)" on a virtual clock (no `store`: not marked); `seconds`: without the milliseconds. */
export function serviceTime(store, ms, { seconds = false } = {}) {
  const text = seconds ? clock(ms).slice(0, 8) : clock(ms);
  return store?.virtualClock === true ? `${text} (virtual)` : text;
}
