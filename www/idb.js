// The saved state's IndexedDB record, for a state too big for localStorage
// even compressed: `{header, text}` under one key. Used from the save
// worker, so that the structured clone of a snapshot of many megabytes
// (done by put() and by the read's result, synchronously) is not the page's.

const DB = "orderpay-playground";
const STORE = "saved";
const KEY = "state";

function opened() {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(DB, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(STORE);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
}

/** Writes the record; resolves once the transaction is committed. */
export async function idbPut(value) {
  const db = await opened();
  try {
    await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, "readwrite");
      tx.objectStore(STORE).put(value, KEY);
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error ?? new Error("IndexedDB: the write was aborted"));
    });
  } finally {
    db.close();
  }
}

/** The record, or undefined. */
export async function idbGet() {
  const db = await opened();
  try {
    return await new Promise((resolve, reject) => {
      const get = db.transaction(STORE, "readonly").objectStore(STORE).get(KEY);
      get.onsuccess = () => resolve(get.result);
      get.onerror = () => reject(get.error);
    });
  } finally {
    db.close();
  }
}
