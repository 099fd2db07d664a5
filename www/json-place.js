// Where a JSON path (as a refusal names it: "rules[1].when.until") sits in
// a document's text, so the editor can select the place a message is
// about. A small reader of JSON that notes where each member starts; it
// gives up (null) on text that is not JSON, and then nothing is selected.

/** The segments of "rules[1].when.until": ["rules", 1, "when", "until"]. */
export function pathSegments(path) {
  const out = [];
  for (const [, key, index] of String(path).matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(index === undefined ? key : Number(index));
  return out;
}

/**
 * The span [start, end) of the text at `path` in `text`: a member's key
 * and value, or an array item; as deep as the document goes (a missing
 * key selects the object that lacks it). Null for text that is not JSON.
 */
export function placeOf(text, path) {
  const want = pathSegments(path);
  const reader = new Reader(text);
  try {
    return reader.find(want);
  } catch {
    return null;
  }
}

class Reader {
  at = 0;

  constructor(text) {
    this.text = text;
  }

  space() {
    while (/\s/.test(this.text[this.at] ?? "")) this.at++;
  }

  fail() {
    throw new SyntaxError(`not JSON at ${this.at}`);
  }

  /** Reads the value here; when `want` has segments left, returns the deepest place found under it. */
  find(want, start = null) {
    this.space();
    const from = start ?? this.at;
    const c = this.text[this.at];
    if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      let found = null;
      let index = 0;
      this.at++;
      this.space();
      if (this.text[this.at] === close) { this.at++; return want.length ? { start: from, end: this.at } : null; }
      for (;;) {
        this.space();
        const memberStart = this.at;
        let key = index;
        if (c === "{") {
          key = JSON.parse(this.string());
          this.space();
          if (this.text[this.at++] !== ":") this.fail();
        }
        const hit = want.length > 0 && want[0] === key;
        const inner = this.find(hit ? want.slice(1) : [], hit ? memberStart : null);
        if (hit) found = inner ?? { start: memberStart, end: this.at };
        this.space();
        index++;
        const next = this.text[this.at++];
        if (next === close) break;
        if (next !== ",") this.fail();
      }
      if (want.length === 0) return null;
      return found ?? { start: from, end: this.at };
    }
    if (c === "\"") this.string();
    else {
      const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(this.text.slice(this.at));
      if (!m) this.fail();
      this.at += m[0].length;
    }
    return want.length ? { start: from, end: this.at } : null;
  }

  /** A string's text, quotes and all. */
  string() {
    const m = /^"(?:[^"\\]|\\.)*"/.exec(this.text.slice(this.at));
    if (!m) this.fail();
    this.at += m[0].length;
    return m[0];
  }
}
