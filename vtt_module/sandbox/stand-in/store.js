// The sandbox's "server" storage: the world's documents, one record per document, in IndexedDB (every
// page of the sandbox in one browser shares it, as every client of a Foundry world shares its server).
//
// A change writes only the document it changed, at once (before it is broadcast), so a page that opens
// later and reads the store after listening to the other pages misses nothing: IndexedDB runs read-write
// transactions in the order they were created, whichever page created them. The old keeper wrote the
// whole world to sessionStorage on every change (92 ms per attack at 633 cards, and past its ~5 MB
// quota from ~510 cards); a card now costs one record, and IndexedDB's quota is a share of the disk.
//
// The database is named after the sandbox run (`/sandbox/world.json`), so a new `volley sandbox` starts
// a new world, and a reload keeps the one it has (Foundry's server would).

const STORE = "docs";

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

export class WorldStore {
  /** @param {IDBDatabase | null} db */
  constructor(db, name) {
    this.db = db;
    this.name = name;
    /** Writes not yet committed (a test waits for them to settle with `flush`). */
    this.pending = new Set();
    this.errors = [];
  }

  static async open(worldId) {
    const name = `volley-sandbox-${worldId}`;
    try {
      const open = indexedDB.open(name, 1);
      open.onupgradeneeded = () => open.result.createObjectStore(STORE);
      return new WorldStore(await request(open), name);
    } catch (error) {
      console.error("the sandbox cannot keep its world (IndexedDB refused):", error);
      return new WorldStore(null, name);
    }
  }

  /** Every record, as [key, value] pairs. */
  async entries() {
    if (!this.db) return [];
    const tx = this.db.transaction(STORE, "readonly");
    const store = tx.objectStore(STORE);
    const [keys, values] = await Promise.all([request(store.getAllKeys()), request(store.getAll())]);
    return keys.map((key, i) => [String(key), values[i]]);
  }

  #write(fn) {
    if (!this.db) return;
    // "relaxed": the sandbox needs no fsync per change (a crash of the browser may lose the last writes).
    const tx = this.db.transaction(STORE, "readwrite", { durability: "relaxed" });
    fn(tx.objectStore(STORE));
    const done = new Promise((resolve) => {
      tx.oncomplete = () => resolve();
      tx.onerror = tx.onabort = () => {
        this.errors.push(String(tx.error));
        console.error("the sandbox could not keep a change:", tx.error);
        resolve();
      };
    });
    this.pending.add(done);
    void done.then(() => this.pending.delete(done));
  }

  put(key, value) {
    this.#write((store) => store.put(structuredClone(value), key));
  }

  delete(key) {
    this.#write((store) => store.delete(key));
  }

  clear() {
    this.#write((store) => store.clear());
  }

  /** Resolves once every write issued so far is on disk. */
  async flush() {
    await Promise.all([...this.pending]);
  }
}
