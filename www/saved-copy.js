// The saving half of the store: this browser's copy of the state, when it
// is written and by which tab (tabs.js), its status as the page shows it,
// and reading it back at start and when another tab saved. How an entry is
// laid out and where it goes (localStorage, compressed, IndexedDB, the
// save worker) is persist.js's.
import { KEY, gzip, packer, readSaved, refusedSizes, rememberRefused, writeBig, writePacked, writePlain } from "./persist.js";
import { PIECES, eachSliced } from "./slices.js";

/** Requests sent from this page saved with the snapshot (headers and bodies: the log has neither), and the longest body kept. */
const SAVE_EXCHANGES = 100;
const SAVE_BODY = 4000;

export class SavedCopy {
  /** What the saved copy holds: "not yet", "unsaved", "saving", "saved", "too big", or "elsewhere" (another tab saves). */
  status = { state: "not yet", at: 0, size: 0, compressed: false };
  /** Saves begun and not yet over. */
  #saving = 0;
  #saveTimer = 0;
  #saveGeneration = 0;
  /** The smallest snapshot localStorage refused to hold as it is, in characters (this browser's, kept across loads). */
  #plainRefused = refusedSizes().plain;
  /** The smallest compressed snapshot localStorage refused, in characters. */
  #packedRefused = refusedSizes().packed;
  /** The length of the last snapshot saved or read back: one too long for localStorage as it is streams into the compressor. */
  #lastLength = 0;
  /** Changes made to the state: a save is "saved" only when none came while it was taken. */
  #changes = 0;
  #following = null;
  #stamp = "";

  /** `store`: the Store whose state this copy keeps, and on which its "saved" events are sent. */
  constructor(store) {
    this.store = store;
  }

  get #tabs() {
    return this.store.tabs;
  }

  /**
   * Settles which tab saves, and loads the state saved in this browser, if
   * any, else starts a fresh service. Returns a notice or "".
   */
  async open(onProgress) {
    const tabs = this.#tabs;
    await tabs.join();
    // The owner's message can come before this tab's localStorage has the new
    // entry (each renderer holds its own copy, updated a moment later), so the
    // storage event, which comes once it has, triggers a look too.
    tabs.addEventListener("saved-elsewhere", () => { if (tabs.role === "follower") this.#follow(); });
    addEventListener("storage", (e) => { if (e.key === KEY && tabs.role === "follower") this.#follow(); });
    tabs.addEventListener("role", (e) => this.#roleChanged(e.detail));
    let notice = "";
    try {
      const saved = await readSaved((share) => onProgress(`Reading the state saved in this browser: ${Math.round(share * 100)}%…`));
      if (saved !== null) {
        const service = await this.store.restored(saved, (share) => onProgress(`Restoring the state saved in this browser: ${Math.round(share * 100)}%…`));
        await this.store.adopt(service, saved.ids, (share) => onProgress(`Loading its log: ${Math.round(share * 100)}%…`));
        this.#stamp = saved.header.stamp ?? "";
        this.#took(saved);
        return "Restored the state saved in this browser." + interrupted(this.store.run);
      }
    } catch (e) {
      notice = `The state saved in this browser could not be restored (${e.message}); starting fresh.`;
    }
    await this.store.fresh({});
    return notice;
  }

  /** What a saved entry brings besides its service (adopted already): the run, the exchanges, the saved status. */
  #took(saved) {
    const { header } = saved;
    this.store.resumeRun(header.calls);
    this.store.run = header.run ?? null;
    this.store.exchanges = new Map(Array.isArray(header.exchanges) ? header.exchanges.filter((e) => Array.isArray(e) && typeof e[0] === "string" && e[1] && typeof e[1] === "object") : []);
    this.#lastLength = saved.length;
    this.#markSaved(header.savedAt ?? 0, saved.length, saved.compressed ?? false, saved.where);
  }

  /** A follower shows what the owning tab saved; several saves in a row load once, the latest. */
  #follow() {
    if (this.#following) { this.#following.again = true; return; }
    const job = { again: true };
    this.#following = job;
    const tabs = this.#tabs;
    (async () => {
      while (job.again && tabs.role === "follower") {
        job.again = false;
        const saved = await readSaved();
        if (saved === null || tabs.role !== "follower") break;
        if (saved.header.stamp && saved.header.stamp === this.#stamp) continue; // seen already
        this.#stamp = saved.header.stamp;
        const service = await this.store.restored(saved);
        if (tabs.role !== "follower") { service.free(); break; }
        await this.store.adopt(service, saved.ids);
        this.#took(saved);
        this.store.changed({ reset: true, followed: true });
      }
    })().catch(() => {}).finally(() => { this.#following = null; });
  }

  #roleChanged({ role, reason }) {
    if (role === "owner" && reason === "took-over") this.save();
    else if (role === "owner" || role === "follower") {
      // Handed over by a tab that closed, or following again: what is saved is the state.
      this.#tabs.role === "follower" ? this.#follow() : this.#reloadOwned();
    }
    this.#setStatus(role === "separate" ? "elsewhere" : this.status.state === "elsewhere" ? "unsaved" : this.status.state);
  }

  async #reloadOwned() {
    const saved = await readSaved().catch(() => null);
    if (saved === null) return;
    await this.store.adopt(await this.store.restored(saved), saved.ids);
    this.#took(saved);
    this.store.changed({ reset: true, followed: true });
  }

  /**
   * The state is about to change (`detail` as the store's "change"): a tab
   * that follows another and changes it here becomes a separate service,
   * and the owner's copy is unsaved until the next save.
   */
  changing(detail) {
    if (this.#tabs.role === "follower" && !detail.followed) this.#tabs.separate();
    this.#changes++;
    if (this.#tabs.role === "owner" && !detail.followed && this.status.state !== "unsaved") this.#setStatus("unsaved");
  }

  scheduleSave() {
    clearTimeout(this.#saveTimer);
    // A test-data run saves as it goes, one save at a time: a save of the timer's would take its snapshot while the run's chunks go on.
    this.#saveTimer = this.#tabs.role === "owner" && !this.store.generating ? setTimeout(() => this.save(), 300) : 0;
  }

  /** Saves now if a save is waiting (the page is going away). */
  flush() {
    // A save still taking its snapshot in pieces, or compressing, would not be written before the page goes: this one is, if it fits as it is.
    if (!this.#saveTimer && !this.#saving && !this.store.generating) return;
    this.save({ now: true });
  }

  /**
   * Saves the snapshot in localStorage, with the header (when, and how far a
   * test-data run got) in the same entry. As it is when it fits (at once, so
   * a reload right after finds it); gzip-compressed when it does not (a
   * journal of 10,000 records and as many orders is several MB of JSON, more
   * than the whole localStorage of an origin). Only the owning tab saves.
   * The snapshot is taken in pieces between tasks where the package can
   * (`now`: in one call, for a page about to go away). Resolves true once
   * written, false when not (a newer save overtook it, another tab owns the
   * copy, or it is too big).
   */
  save({ now = false } = {}) {
    clearTimeout(this.#saveTimer);
    this.#saveTimer = 0;
    // Live, the state is the server's (kept with its --state FILE), not this browser's.
    if (this.store.remote) {
      this.#setStatus("on the server", 0, false);
      return Object.assign(Promise.resolve(false), { taken: Promise.resolve() });
    }
    if (this.#tabs.role !== "owner") return Object.assign(Promise.resolve(false), { taken: Promise.resolve() });
    const began = performance.now();
    try {
      let taken;
      const tookIt = new Promise((resolve) => { taken = resolve; });
      const saving = this.#save(now, taken);
      this.#saving++;
      saving.finally(() => { this.#saving--; taken(); });
      // `taken`: the snapshot is whole (a test-data run waits for that much before its next chunk, not for the compression).
      return Object.assign(saving, { taken: tookIt });
    } finally {
      // The synchronous part of a save, snapshot() (or the start of its pieces) included: what a save holds the page for at once.
      performance.measure("orderpay save", { start: began, end: performance.now() });
    }
  }

  async #save(now, taken) {
    const generation = ++this.#saveGeneration;
    const changes = this.#changes;
    const { store } = this;
    // A copy, as things are now: the run and the counts go on changing while the snapshot is compressed, and the header must describe the snapshot.
    const header = structuredClone({ savedAt: Date.now(), stamp: `${this.#tabs.id}-${generation}`, run: store.run, exchanges: savedExchanges(store.exchanges), calls: store.savedRun() });
    // Whole, the snapshot is taken and written in this same task (a flush as the page is hidden waits for nothing).
    const snapshot = now || typeof store.service.snapshotPieces !== "function" ? this.#wholeSnapshot() : await this.#snapshotPieces(generation);
    if (!snapshot) return false;
    const { pieces, length } = snapshot;
    this.#lastLength = length;
    taken();
    // A size localStorage refused once is not tried again as it is: the refused write costs as much as a good one.
    if (pieces && length < this.#plainRefused) {
      try {
        const size = writePlain(header, pieces.length === 1 ? pieces[0] : pieces.join(""));
        this.#written(changes, header, size, false);
        return true;
      } catch {
        this.#plainRefused = length; // too big: compress
        rememberRefused({ plain: this.#plainRefused, packed: this.#packedRefused });
      }
    }
    return this.#savePacked(generation, changes, header, snapshot);
  }

  /** The service's snapshot as one text: { pieces: [text], length }. */
  #wholeSnapshot() {
    // The service's own part of a save, measured so that its share of a long task can be told apart.
    const started = performance.now();
    const pieces = [this.store.service.snapshot()];
    performance.measure("orderpay snapshot", { start: started, end: performance.now() });
    return { pieces, length: pieces[0].length, packing: null };
  }

  /**
   * The service's snapshot in pieces, for save number `generation`: {
   * pieces, length, packing }, its pieces as text or (known to be too big
   * for localStorage as it is) already on their way to the worker's
   * compression; null when a newer save overtook it.
   */
  async #snapshotPieces(generation) {
    const started = performance.now();
    let pieces = null;
    let length = 0;
    let packing = null;
    const source = this.store.service.snapshotPieces(PIECES);
    performance.measure("orderpay snapshot", { start: started, end: performance.now() });
    // Known to be too big for localStorage as it is: each piece goes to the worker as it comes.
    const stream = this.#lastLength >= this.#plainRefused ? packer() : null;
    if (stream) {
      this.#setStatus("saving");
      this.status.since = performance.now();
      await eachSliced(source, (piece) => { stream.add(piece); length += piece.length; }, () => {
        if (generation === this.#saveGeneration) this.#progress(source.progress);
      });
      packing = stream.end();
      packing.catch(() => {}); // overtaken below: nobody waits for it
    } else {
      pieces = [];
      await eachSliced(source, (piece) => { pieces.push(piece); length += piece.length; });
    }
    if (generation !== this.#saveGeneration) return null;
    return { pieces, length, packing };
  }

  /** The snapshot compressed, in localStorage, or in IndexedDB when even that is too big; whether it was written. */
  async #savePacked(generation, changes, header, { pieces, length, packing }) {
    if (!packing) {
      this.#setStatus("saving");
      this.status.since = performance.now();
      packing = gzip(pieces, (share) => { if (generation === this.#saveGeneration) this.#progress(share); });
    }
    let packed;
    try {
      packed = await packing;
    } catch {
      this.#setStatus("too big", length, true);
      return false;
    }
    if (generation !== this.#saveGeneration || this.#tabs.role !== "owner") return false;
    try {
      // As for the plain text: a packed size refused once goes straight to IndexedDB.
      if (packed.length >= this.#packedRefused) throw new Error("too big for localStorage");
      const size = writePacked(header, packed);
      this.#written(changes, header, size, true);
      return true;
    } catch {
      this.#packedRefused = Math.min(this.#packedRefused, packed.length);
      rememberRefused({ plain: this.#plainRefused, packed: this.#packedRefused });
      // Too big even compressed: IndexedDB, which holds hundreds of MB; the worker still has the text.
      try {
        const size = await writeBig(header, pieces ?? [], packing, length);
        if (generation !== this.#saveGeneration) return false;
        this.#written(changes, header, size, false, "IndexedDB");
        return true;
      } catch {
        this.#setStatus("too big", length, true);
        return false;
      }
    }
  }

  /** "saved" only when nothing changed since the snapshot was taken; otherwise the next save is on its way. */
  #written(changes, header, size, compressed, where = "localStorage") {
    this.#tabs.saved(header);
    if (changes === this.#changes) this.#markSaved(header.savedAt, size, compressed, where);
    else this.#setStatus("unsaved");
  }

  #markSaved(at, size, compressed, where = "localStorage") {
    this.status = { state: this.#tabs.role === "separate" ? "elsewhere" : "saved", at, size, compressed, where };
    this.#tell();
  }

  /** How far the compression of a save got (0..1): told once it has taken half a second, and not more than every tenth. */
  #progress(share) {
    if (this.status.state !== "saving" || performance.now() - (this.status.since ?? 0) < 500) return;
    const tenth = Math.floor(share * 10);
    if (tenth === Math.floor((this.status.progress ?? -1) * 10)) return;
    this.status = { ...this.status, progress: share };
    this.#tell();
  }

  #setStatus(state, size = this.status.size, compressed = this.status.compressed) {
    this.status = { ...this.status, state, size, compressed, progress: undefined };
    this.#tell();
  }

  /** The store's "saved" event, with the status as its detail. */
  #tell() {
    this.store.dispatchEvent(new CustomEvent("saved", { detail: this.status }));
  }
}

/** The latest exchanges, long bodies cut, for the saved header. */
function savedExchanges(exchanges) {
  const cut = (v) => (typeof v === "string" && v.length > SAVE_BODY ? `${v.slice(0, SAVE_BODY)}…` : v);
  return [...exchanges].slice(-SAVE_EXCHANGES).map(([key, x]) => [key, { ...x, body: cut(x.body), envelope: JSON.stringify(x.envelope).length > SAVE_BODY ? { code: x.envelope?.code, msg: x.envelope?.msg, data: "(too long to keep)" } : x.envelope }]);
}

/** What the notice adds when the saved state is that of a test-data run a reload cut short. */
function interrupted(run) {
  if (!run || run.state !== "running" || !(run.made < run.target)) return "";
  const n = (v) => Number(v).toLocaleString("en-US");
  return ` A test-data run was cut short at ${n(run.made)} of ${n(run.target)} orders: those ${n(run.made)} are kept (the run saves after every chunk).`;
}
